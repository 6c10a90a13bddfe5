"""The feed page: first page, load more, errors, texts, Last updated, safety."""
import re

import pytest
from playwright.sync_api import expect

from pulldownkit.client import http_json
from conftest import without_feed

UPDATED = re.compile(r"^Last updated on \d\d/\d\d/\d{4} \d\d:\d\d [AP]M$")
PICTURES_DONE = """() => [...document.querySelectorAll('img')].every(i => { const r = i.getBoundingClientRect();
    return i.complete || r.top > innerHeight || r.bottom < 0; })"""


def test_the_first_page_is_a_wai_aria_feed(start_server, phone):
    tab = phone(start_server(seed="50")).open()
    feed = tab.page.locator("[role=feed]")
    assert feed.get_attribute("aria-busy") == "false"
    articles = tab.page.locator("#feed article")
    assert articles.count() >= 10
    first = articles.first
    assert first.get_attribute("aria-posinset") == "1"
    assert first.get_attribute("aria-setsize") == "-1"
    assert first.get_attribute("tabindex") == "0"
    assert tab.page.text_content(f"#{first.get_attribute('aria-labelledby')}") == first.locator("h2").text_content()
    assert first.locator("time").get_attribute("datetime").endswith("Z")
    assert tab.ids() == sorted(tab.ids(), reverse=True)
    head = tab.page.locator(".day-head").first
    assert head.text_content() == "Today"
    assert head.evaluate("h => getComputedStyle(h).position") == "sticky"
    assert tab.page.locator("[role=status]:not([hidden])").count() == 1, "the panel's; the start over line is hidden"
    assert tab.errors == []


def test_load_more_reaches_the_end_without_duplicates(start_server, phone):
    tab = phone(start_server(seed="35")).open()
    tab.scroll_to_end()
    ids = tab.read_feed()
    assert len(ids) == 35
    assert len(set(ids)) == 35
    assert ids == sorted(ids, reverse=True)
    assert tab.page.get_attribute("#feed article:last-of-type", "aria-setsize") == "35"
    pages = [u for m, u in tab.requests if m == "GET" and "/api/items" in u]
    assert len(pages) == 3  # 10 in the page itself, then 10 + 10 + 5, each page once
    assert all("before=" in u for u in pages)


def test_a_short_first_page_loads_the_next_one_at_once(start_server, desktop):
    tab = desktop(start_server(seed="25"))
    tab.page.set_viewport_size({"width": 1280, "height": 2400})
    tab.open()
    tab.page.wait_for_function("() => document.querySelectorAll('#feed article').length >= 20")


def test_a_delay_keeps_the_skeleton_rows_and_the_refresh_spinner_visible(start_server, phone):
    server = start_server("--delay-ms", "1200", seed="20")
    tab = phone(server).open()  # the first page came with the page: the next, the last, is delayed
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_function("""() => document.querySelector('#wait .skeleton')?.getClientRects().length
        && document.getElementById('feed').ariaBusy === 'true' && document.getElementById('more').dataset.state === 'loading'""")
    tab.page.wait_for_function("() => document.getElementById('feed').ariaBusy === 'false'")
    assert tab.page.locator("#wait .skeleton").count() == 0
    tab.page.click("#refresh")
    tab.wait_state("refreshing")
    assert tab.page.is_visible(".ptr-spinner")
    tab.wait_state("idle")
    assert tab.lasted("refreshing") >= 1200, "the spinner stayed for the whole delay"


def test_a_failed_refresh_keeps_the_list_and_last_updated_and_retry_works(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server)
    # The first refresh goes to the server's own failure knob.
    failed = []

    def fail_once(route):
        if not failed:
            failed.append(1)
            url = route.request.url
            route.continue_(url=url + ("&" if "?" in url else "?") + "_fail=503")
        else:
            route.continue_()
    tab.page.route("**/api/refresh*", fail_once)
    tab.open()
    before = tab.ids()
    http_json(server, "POST", "/api/items", {"title": "after the failure", "body": "b", "author": "t"}, expect=201)
    tab.refresh_by(tab.touch_pull, 220)
    assert tab.page.is_visible("#error")
    assert tab.page.text_content("#error-text") == "Couldn't refresh."
    assert tab.ids() == before
    assert tab.page.text_content(".ptr-updated") == "Not updated yet"
    assert tab.page.get_attribute("#feed", "aria-busy") == "false"

    tab.refresh_by(tab.page.click, "#retry")
    assert tab.page.is_hidden("#error")
    assert tab.page.text_content("#feed article h2") == "after the failure"
    assert UPDATED.match(tab.page.text_content(".ptr-updated"))
    assert len(tab.refresh_requests()) == 2


def test_a_failed_page_shows_a_retry_row(start_server, phone):
    tab = phone(start_server(seed="35"))
    failed = []

    def fail_once(route):
        if "before=" in route.request.url and not failed:
            failed.append(1)
            route.continue_(url=route.request.url + "&_fail=500")
        else:
            route.continue_()
    tab.page.route("**/api/items?*", fail_once)
    tab.open()
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_selector("#more-retry", state="visible")
    assert tab.page.text_content("#more-text") == "Couldn't load more items."
    assert tab.page.get_attribute("#feed", "aria-busy") == "false"
    assert tab.page.locator("#wait .skeleton").count() == 0
    tab.page.click("#more-retry")
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(35, 0, -1))


@pytest.mark.parametrize("lang, said, retry", [("en", "Couldn't refresh.", "Try again"), ("zh", "刷新失败。", "重试")])
def test_a_failed_refresh_says_so_and_try_again_once(start_server, phone, lang, said, retry):
    tab = phone(start_server("--fail-rate", "1", seed="5")).open(f"?lang={lang}")  # the page itself is not the API's
    tab.refresh_by(tab.page.click, "#refresh")
    assert tab.page.text_content("#error-text") == said
    assert tab.page.inner_text("#error").count(retry) == 1, "the button says it; the text does not say it again"
    assert tab.page.text_content("#retry") == retry
    assert tab.violations() == []


def test_every_api_call_failing_leaves_nothing_loading(start_server, phone):
    tab = phone(start_server("--fail-rate", "1", seed="20")).open()  # the page itself is not the API's
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_selector("#more-retry", state="visible")
    tab.refresh_by(tab.page.click, "#refresh")
    assert tab.page.is_visible("#error")
    assert tab.page.get_attribute("#feed", "aria-busy") == "false"
    assert tab.page.text_content(".ptr-updated") == "Not updated yet"


def test_last_updated_survives_a_reload_and_a_server_restart(start_server, phone, tmp_path):
    db = tmp_path / "restart.sqlite"
    server = start_server(seed="20", db=db)
    tab = phone(server).open()
    tab.refresh_by(tab.page.click, "#refresh")
    shown = tab.page.text_content(".ptr-updated")
    assert UPDATED.match(shown)
    tab.page.reload()
    tab.page.wait_for_function("() => document.querySelector('.ptr-updated').textContent !== ''")
    assert tab.page.text_content(".ptr-updated") == shown
    server.stop()
    again = start_server(seed="20", db=db)
    tab.page.goto(again.url + "/")
    tab.page.wait_for_function("() => document.querySelector('.ptr-updated').textContent !== ''")
    assert tab.page.text_content(".ptr-updated") == shown


def test_an_html_title_is_shown_as_text_and_runs_nothing(start_server, phone):
    server = start_server(seed="5")
    evil = '<img src=x onerror=alert(1)>'
    http_json(server, "POST", "/api/items", {"title": evil, "body": "<b>bold?</b>", "author": "<script>alert(2)</script>"},
              expect=201)
    tab = phone(server).open()
    # Every picture on screen has loaded or failed: an <img> made of the title would have run its onerror.
    tab.page.wait_for_function(PICTURES_DONE)
    tab.frames()
    assert tab.page.text_content("#feed article h2") == evil
    assert tab.page.locator(f"#feed img:not([src^='{server.url}/media/demo/']), #feed b, #feed script").count() == 0, \
        "only the demo items' own pictures"
    assert tab.dialogs == []


def test_the_demo_form_posts_an_item_the_next_pull_shows(start_server, phone):
    server = start_server(seed="10")
    tab = phone(server).open()
    tab.page.click(".compose summary")
    tab.page.fill("input[name=title]", "Posted from the form")
    tab.page.fill("textarea[name=body]", "hello")
    tab.page.fill("input[name=author]", "me")
    tab.page.click("#compose button")
    tab.page.wait_for_function("() => document.getElementById('compose-status').textContent !== ''")
    assert tab.page.text_content("#compose-status") == "Posted. Pull down to see it."
    tab.page.click(".compose summary")  # fold the form away again
    tab.page.evaluate("() => scrollTo(0, 0)")
    tab.refresh_by(tab.touch_pull, 220)
    assert tab.page.text_content("#feed article h2") == "Posted from the form"
    assert tab.status() == "1 new item"


@pytest.mark.parametrize("lang, said", [("en", "Couldn't post: an item needs a title."), ("zh", "发布失败：需要填写标题。")])
def test_the_demo_form_says_an_item_needs_a_title(start_server, phone, lang, said):
    server = start_server(seed="3")
    tab = phone(server).open(f"?lang={lang}")
    tab.page.locator(".compose summary").tap()
    title = tab.page.locator("input[name=title]")
    title.tap()
    tab.page.keyboard.type("   ")  # passes `required`; the server trims it to nothing
    with tab.page.expect_response(lambda r: r.request.method == "POST" and "/api/items" in r.url) as refused:
        tab.page.locator("#compose button").tap()
    assert refused.value.status == 400
    expect(tab.page.locator("#compose-status")).to_have_text(said)
    expect(title).to_have_attribute("aria-invalid", "true")
    expect(title).to_be_focused()
    tab.page.keyboard.type("Now with a title")
    tab.page.locator("#compose button").tap()
    expect(tab.page.locator("#compose-status")).not_to_have_text(said)
    expect(title).not_to_have_attribute("aria-invalid", "true")
    assert tab.violations() == []


def test_a_gap_puts_the_newest_page_above_a_row_that_fills_it(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server).open()
    assert tab.ids()[0] == 20
    for i in range(12):  # more new items than one refresh brings: a gap
        http_json(server, "POST", "/api/items", {"title": f"burst {i}", "body": "b", "author": "t"}, expect=201)
    tab.refresh_by(tab.page.click, "#refresh")
    ids = tab.ids()
    assert ids[:8] == list(range(32, 24, -1)), "the newest page on top"
    assert tab.page.get_attribute("#feed article", "aria-posinset") == "1"
    # The row between them fills the gap without repeating anything.
    while not tab.page.query_selector("#feed .gap"):  # under the newest page
        tab.swipe(300)
        tab.wait_still()
    tab.page.locator("#feed .gap").scroll_into_view_if_needed()
    tab.page.get_by_role("button", name="Load 2 newer items").tap()
    expect(tab.page.locator("#feed .gap")).to_have_count(0)
    tab.idle()
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(32, 0, -1))


def test_a_failed_first_page_can_be_retried(start_server, phone):
    server = start_server(seed="15")
    tab = phone(server)
    without_feed(tab)
    failed = []

    def fail_first(route):
        url = route.request.url
        if not failed:
            failed.append(1)
            route.continue_(url=url + ("&" if "?" in url else "?") + "_fail=500")
        else:
            route.continue_()
    tab.page.route("**/api/items*", fail_first)
    tab.open(wait_items=False)
    tab.page.wait_for_selector("#more-retry", state="visible")
    assert tab.page.text_content("#more-text") == "Couldn't load items."
    assert tab.ids() == []
    tab.page.click("#more-retry")
    tab.page.wait_for_selector("#feed article")
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(15, 0, -1))
    assert all("Infinity" not in u for _, u in tab.requests)

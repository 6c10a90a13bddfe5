"""A feed that starts over under the page: the page names the feed it holds in every page it asks
for, and starts over from the newest page, saying so in one calm line, when a page of the old feed
is refused (410 feed-changed), when an answer names another feed, or when the stream says `reset`.

Against the real server: `POST /api/demo/reset` starts its feed over under a new name, as
`--reset` or another data file does. Where a test is about one of the three signals, the event
stream is held silent, so that the page can only learn it from that signal.
"""
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from conftest import Hold
from pulldownkit.client import http_json

# Every article in the DOM now carries `__old`, to tell the nodes of before a start over from new ones.
MARK_ARTICLES = "() => document.querySelectorAll('#feed article').forEach(a => { a.__old = true; })"
OLD_ARTICLES = "() => [...document.querySelectorAll('#feed article')].filter(a => a.__old).length"


def newest(server):
    """The server's feed now: (its name, as every page answer says it; its newest item's id)."""
    page = http_json(server, "GET", "/api/items?limit=1", expect=200)[2]
    return page["feed"], page["items"][0]["id"]


def feed_name(server):
    return newest(server)[0]


def reset(server):
    """The server's feed starts over under a new name, from the same seed (its items' ids go on
    from the old feed's); returns (the new name, its newest item's id)."""
    old = feed_name(server)
    http_json(server, "POST", "/api/demo/reset", expect=200)
    name, top = newest(server)
    assert name != old
    return name, top


def names_sent(tab, since=0):
    """The feed name each page request carried since `since` requests (None for none)."""
    return [parse_qs(urlsplit(u).query).get("feed", [None])[0]
            for m, u in tab.requests[since:] if m == "GET" and "/api/items" in u]


def silent_stream(tab):
    """The page's event stream is asked for and never answers: no `event: reset` reaches it."""
    return Hold(tab.page, "**/api/events*")


def started_over(tab, lang="en"):
    """Waits for the calm line, and for the newest page to be in and nothing to load."""
    expect(tab.page.locator("#note")).to_have_text({"en": "The feed has started over.", "zh": "列表已重新开始。"}[lang])
    tab.idle()


def newest_pages(tab, since=0):
    """The newest-page requests made since `since` requests: no cursor, no name."""
    return [u for m, u in tab.requests[since:] if m == "GET" and re.search(r"/api/items(\?(?!.*(before|after)=).*)?$", u)]


def test_every_page_and_every_text_the_page_asks_for_names_the_feed(start_server, desktop):
    server = start_server(seed="300")
    name = feed_name(server)
    tab = desktop(server).open()
    tab.page.mouse.click(640, 20)  # the bar: the keys scroll the page
    for _ in range(12):  # End, page after page: the top's text is dropped
        tab.scroll_by(tab.page.keyboard.press, "End")
        tab.idle()
    tab.scroll_by(tab.page.keyboard.press, "Home")  # and back: the top's text is asked for again
    tab.page.wait_for_selector("#feed article[data-id='300']")
    tab.page.wait_for_function("() => !document.querySelector('#feed .skeleton')")
    assert any("after=" in u for _, u in tab.requests), "the text was fetched again on the way up"
    sent = names_sent(tab)
    assert sent and set(sent) == {name}, sent
    assert tab.page.is_hidden("#note")


def test_a_page_of_a_feed_since_replaced_starts_the_page_over_from_the_newest(start_server, phone):
    server = start_server(seed="60")
    old = feed_name(server)
    tab = phone(server)
    silent_stream(tab)
    tab.open()
    tab.page.evaluate("() => { window.__samePage = true; }")
    held = Hold(tab.page, "**/api/items?*", when=lambda url: "before=" in url)
    tab.to_bottom("document.getElementById('more').dataset.state === 'loading'")  # a finger reads down
    tab.page.evaluate(MARK_ARTICLES)
    new, top = reset(server)  # the store starts over under the page, while it asks for the next page
    before = len(tab.requests)
    held.release()
    started_over(tab)
    assert tab.page.evaluate("scrollY") == 0
    assert tab.ids()[0] == top and tab.page.get_attribute("#feed article", "aria-posinset") == "1"
    assert tab.page.evaluate(OLD_ARTICLES) == 0, "every article was drawn again"
    assert len(newest_pages(tab, before)) == 1, "the newest page once: no loop"
    assert tab.page.evaluate("() => window.__samePage"), "no reload"
    held_at = max(i for i, (m, u) in enumerate(tab.requests[:before]) if "/api/items" in u and "before=" in u)
    assert names_sent(tab, held_at)[:2] == [old, None], "refused by its old name; the newest page asked for by none"
    assert tab.page.get_attribute("#note", "role") == "status"
    assert tab.violations() == []
    # Paging goes on in the new feed, by its name.
    tab.to_bottom("document.getElementById('more-text').textContent === 'No more items'")
    assert names_sent(tab)[-1] == new
    assert [e for e in tab.errors if "status of 410" not in e] == [], "only the browser's own line for the 410"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_stream_saying_reset_starts_the_page_over(start_server, desktop, lang):
    server = start_server(seed="40")
    tab = desktop(server).open(f"?lang={lang}")
    tab.page.evaluate("() => { window.__samePage = true; }")
    for _ in range(4):
        tab.scroll_by(tab.wheel, 900, x=640, y=400)
    tab.wait_still()
    assert tab.page.evaluate("scrollY") > 0
    tab.page.evaluate(MARK_ARTICLES)
    before = len(tab.requests)
    with tab.page.expect_request(lambda r: "/api/events" in r.url and "after=" in r.url) as reopened:
        new, top = reset(server)  # the open stream says `reset`; nothing else tells the page
        started_over(tab, lang)
    assert f"after={top}" in reopened.value.url, "the new stream starts after the new feed's newest item"
    assert tab.page.evaluate("scrollY") == 0
    assert tab.page.evaluate(OLD_ARTICLES) == 0
    assert len(newest_pages(tab, before)) == 1
    assert set(names_sent(tab, before)) <= {None, new}
    assert tab.page.evaluate("() => window.__samePage")
    assert tab.violations() == []
    tab.refresh_by(tab.page.click, "#refresh")  # news of its own: the line goes
    expect(tab.page.locator("#note")).to_be_hidden()


def test_a_refresh_that_answers_for_another_feed_starts_over(start_server, desktop):
    server = start_server(seed="30")
    tab = desktop(server)
    silent_stream(tab)
    tab.open()
    reset(server)
    assert tab.tab_to("refresh", presses=5)
    tab.refresh_by(tab.page.keyboard.press, "Enter")
    started_over(tab)
    assert tab.status() == "The feed has started over."
    assert tab.page.is_hidden("#error")


# An article whose link is wholly on screen, below the bar and the sticky day header.
LINK_IN_VIEW = """() => {
    const edge = document.querySelector('.bar').getBoundingClientRect().bottom
        + document.querySelector('#feed .day-head').getBoundingClientRect().height;
    return +[...document.querySelectorAll('#feed article')].find(a => {
        const r = a.querySelector('footer a').getBoundingClientRect();
        return r.top >= edge && r.bottom <= innerHeight;
    }).dataset.id;
}"""


def test_back_to_a_feed_since_replaced_starts_over_instead_of_showing_the_old_one(start_server, phone):
    server = start_server(seed="200")
    tab = phone(server)
    silent_stream(tab)
    tab.open()
    for _ in range(12):
        tab.scroll_by(tab.swipe, 700)
    tab.wait_still()
    deep = min(tab.ids())
    tab.page.locator(f"#feed article[data-id='{tab.page.evaluate(LINK_IN_VIEW)}'] footer a").tap()
    tab.page.wait_for_selector("#item article")
    _, top = reset(server)
    tab.page.go_back()
    started_over(tab)
    assert tab.ids()[0] == top and deep not in tab.ids()
    assert tab.page.evaluate("scrollY") == 0

"""Where the feed ends: "No more items" right under the last article, however it was reached; the
empty feed; a failed load-more in the page's own words. Real wheel, touch, clicks and reloads."""
import re

import pytest

from pulldownkit.client import http_json
from conftest import without_feed

AT_THE_END = """document.getElementById('more-text').textContent === 'No more items'
    && document.getElementById('feed').ariaBusy === 'false'"""
IDLE_AT_BOTTOM = f"() => {AT_THE_END} && scrollY + innerHeight >= document.documentElement.scrollHeight - 1"
NO_SKELETONS = "() => !document.querySelector('#feed .skeleton, #wait .skeleton')"


def scroll_to_the_end(tab, touch):
    """Scrolls down by finger flicks (phone) or the wheel (desktop) until the feed's last page is
    in and the page is at its bottom, and the scrolling has come to rest."""
    tab.to_bottom(until=AT_THE_END, touch=touch)
    tab.page.wait_for_function(NO_SKELETONS)
    tab.frames()
    assert tab.page.evaluate(IDLE_AT_BOTTOM), "never reached the end"


def assert_no_blank_end(tab, last_id):
    end = tab.end()
    assert end["last"] == last_id, end
    assert end["spacer"] == 0, f"a spacer of {end['spacer']} px under the last article"
    assert 0 <= end["moreTop"] - end["lastBottom"] <= end["gap"] + 1, end
    assert end["bar"] < end["lastBottom"] <= end["viewport"], f"the last article is off screen: {end}"
    assert end["moreBottom"] <= end["viewport"], f"'No more items' is off screen: {end}"


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("seed", [15, 120])
def test_no_more_items_sits_right_under_the_last_article_after_scrolling_a_reload_and_back(
        start_server, request, size, seed):
    tab = request.getfixturevalue(size)(start_server(seed=str(seed))).open()
    scroll_to_the_end(tab, touch=size == "phone")
    assert_no_blank_end(tab, 1)

    tab.page.reload()
    tab.page.wait_for_selector("#feed article[data-id='1']")
    tab.page.wait_for_function(NO_SKELETONS)
    tab.frames()
    assert_no_blank_end(tab, 1)

    tab.page.click("#feed article[data-id='1'] footer a")
    tab.page.wait_for_selector("#item article")
    tab.page.go_back()
    tab.page.wait_for_selector("#feed article[data-id='1']")
    tab.page.wait_for_function(NO_SKELETONS)
    tab.frames()
    assert_no_blank_end(tab, 1)
    assert tab.page.get_attribute("#feed article[data-id='1']", "aria-posinset") == str(seed)
    assert tab.violations() == []
    assert tab.errors == []


@pytest.mark.parametrize("lang, title, how", [
    ("en", "No items yet", "Post the first one with “Post an item” above, or from a terminal:"),
    ("zh", "还没有内容", "用上面的“发布一条”发布第一条，或在终端里运行："),
])
def test_an_empty_feed_says_so_and_how_to_post_the_first_item(start_server, phone, lang, title, how):
    server = start_server(seed="0")
    tab = phone(server)
    tab.open(f"?lang={lang}", wait_items=False)
    tab.page.wait_for_selector("#empty", state="visible")
    assert tab.page.text_content("#empty h2") == title
    assert tab.page.text_content("#empty p") == how
    curl = tab.page.text_content("#curl")
    assert curl.startswith(f"curl {server.url}/api/items")
    assert "-d '{\"title\": \"Hello\"}'" in curl
    assert tab.page.text_content("#more-text") == "", "never 'No more items' in an empty feed"
    assert tab.page.get_attribute("#more", "data-state") == "empty"
    assert tab.violations() == []

    http_json(server, "POST", "/api/items", {"title": "The first one", "body": "b", "author": "t"}, expect=201)
    tab.touch_pull(220)
    tab.wait_state("idle")
    assert tab.page.is_hidden("#empty")
    assert tab.page.text_content("#feed article h2") == "The first one"
    assert tab.page.text_content("#more-text") == ("No more items" if lang == "en" else "没有更多了")
    assert tab.errors == []


def test_an_empty_feed_the_script_asked_for_itself_says_so_too(start_server, phone):
    tab = phone(start_server(seed="0"))
    without_feed(tab)
    tab.open(wait_items=False)
    tab.page.wait_for_selector("#empty", state="visible")
    assert tab.page.text_content("#more-text") == ""
    assert tab.page.locator("#wait .skeleton").count() == 0


# The load-more row's text and button: each on one line (one line box), and side by side.
ONE_LINE = """id => { const n = document.getElementById(id), r = document.createRange();
    r.selectNodeContents(n); return r.getClientRects().length; }"""
BOXES = "ids => ids.map(id => document.getElementById(id).getBoundingClientRect().toJSON())"
LOOK = "id => { const s = getComputedStyle(document.getElementById(id)); return [s.color, s.backgroundColor, " \
       "s.borderRadius, s.padding, s.fontSize, s.fontWeight, s.borderWidth, s.borderColor]; }"


@pytest.mark.parametrize("lang, text", [("en", "Couldn't load more items."), ("zh", "无法加载更多内容。")])
def test_a_failed_load_more_says_so_in_the_pages_words_with_a_retry_like_the_refresh_banners(
        start_server, phone, lang, text):
    tab = phone(start_server("--fail-rate", "1", seed="50")).open(f"?lang={lang}")  # the page is not the API's
    for _ in range(10):  # down to the end of the first page, whose pictures make it a few screens tall
        tab.swipe(500)
        tab.wait_still()
        if tab.page.is_visible("#more-retry"):
            break
    tab.page.wait_for_selector("#more-retry", state="visible")
    assert tab.page.text_content("#more-text") == text
    shown = tab.page.inner_text("body")
    assert "fail-rate" not in shown and "Injected" not in shown, "the server's detail is not the reader's"
    assert any(m.startswith(text) and "Injected failure" in m for m in tab.console), tab.console
    assert tab.page.evaluate(ONE_LINE, "more-text") == 1
    assert tab.page.evaluate(ONE_LINE, "more-retry") == 1, "Try again wraps"
    text_box, button = tab.page.evaluate(BOXES, ["more-text", "more-retry"])
    assert text_box["right"] <= button["left"], "the text and the button side by side"
    assert abs((text_box["top"] + text_box["bottom"]) / 2 - (button["top"] + button["bottom"]) / 2) <= 1
    assert tab.violations() == []

    tab.page.click("#refresh")  # a failed refresh: its banner, to compare the row with
    tab.wait_state("idle")
    tab.page.wait_for_selector("#error", state="visible")
    assert tab.page.evaluate(LOOK, "more-retry") == tab.page.evaluate(LOOK, "retry")
    assert tab.page.evaluate(LOOK, "more") == tab.page.evaluate(LOOK, "error")
    retry, banners = tab.page.evaluate(BOXES, ["more-retry", "retry"])
    # The same height to within one layout unit (1/64 px): at different offsets on a phone's
    # device scale the two boxes' heights can differ in the fourth decimal.
    assert abs(retry["height"] - banners["height"]) < 1 / 64, (retry, banners)
    assert re.search(r"Injected failure", " ".join(tab.console))
    assert "fail-rate" not in tab.page.inner_text("body")
    assert tab.violations() == []

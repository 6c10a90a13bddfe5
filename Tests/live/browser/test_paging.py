"""Paging beyond the plain scroll, in real Chromium with real input: the feed opened on an item
(`/#item=ID`, the item page's "Show in feed") and loaded both ways, a gap after a burst shown where
it is and filled from either end without moving what is read, "Back to newest", short pages that
are not the end, and a cursor that expired starting the feed over from the newest page."""
from playwright.sync_api import expect

from conftest import merge_window
from pulldownkit.client import http_json

MERGE = {"Content-Type": "application/merge-patch+json"}
GAP = "#feed .gap"


def reading(tab):
    """The first article below the bar, and its top on screen. Kept where it was means within a
    pixel: scrolling by a fractional offset lands on the device's pixel grid (a third of a CSS
    pixel on a phone), so the top rounds either way."""
    return tab.page.evaluate("""() => {
        const edge = document.querySelector('.bar').getBoundingClientRect().bottom;
        const a = [...document.querySelectorAll('#feed article')].find(a => a.getBoundingClientRect().bottom > edge);
        return [+a.dataset.id, a.getBoundingClientRect().top];
    }""")


def kept(now, before):
    """Whether what is read (`reading`) is the same article, within a pixel of where it was."""
    return now[0] == before[0] and abs(now[1] - before[1]) <= 1 or (now, before)


def landed_on(tab, item):
    """Whether article `item` is the first one wholly in view, focus ring and all: its top just
    under the bar and the sticky day header, with room for the ring (3 px, 2 px out)."""
    return tab.page.evaluate("""id => {
        const edge = document.querySelector('.bar').getBoundingClientRect().bottom
            + document.querySelector('#feed .day-head').getBoundingClientRect().height + 5;
        const a = [...document.querySelectorAll('#feed article')].find(a => a.getBoundingClientRect().top >= edge - 2);
        return +a.dataset.id === id && Math.abs(a.getBoundingClientRect().top - edge) < 2 || [a.dataset.id, a.getBoundingClientRect().top, edge];
    }""", item)


def read_up(tab):
    """Every id of the feed, read by scrolling up from where the page is, a screen at a time, by
    the wheel: what loads as the reader goes up is read too."""
    seen = []
    while True:
        tab.idle()
        tab.frames()
        seen = merge_window(seen, tab.ids(), upward=True)
        if tab.page.evaluate("() => scrollY === 0") and not tab.page.query_selector(GAP):
            return seen
        tab.wheel(-600)
        tab.wait_still()


def test_opening_an_item_lands_on_it_and_loads_both_ways(start_server, desktop):
    server = start_server(seed="120")
    tab = desktop(server).open("#item=60")
    tab.idle()
    assert landed_on(tab, 60) is True, "the item is the first under the bar"
    assert tab.page.evaluate("document.activeElement.dataset.id") == "60"
    expect(tab.page.locator(".to-newest")).to_be_visible()
    up = read_up(tab)
    assert 60 in up and up == list(range(120, up[-1] - 1, -1)), "the newer items load going up, each once"
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(120, 0, -1)), "the whole feed, once, in order"


def test_back_to_newest_is_one_step_from_deep_in_the_feed(start_server, phone):
    server = start_server(seed="400")
    tab = phone(server).open("#item=40")
    button = tab.page.locator(".to-newest")
    expect(button).to_be_visible()
    pages = len([u for m, u in tab.requests if "/api/items?" in u])
    button.tap()
    tab.page.wait_for_function("() => document.querySelector('#feed article')?.dataset.id === '400'")
    tab.idle()
    assert tab.page.evaluate("scrollY") == 0 and tab.ids()[0] == 400
    expect(button).to_be_hidden()
    asked = [u for m, u in tab.requests if "/api/items?" in u][pages:]
    assert len(asked) <= 2, f"a fresh newest page, not a walk up: {asked}"
    assert tab.page.text_content("#note") == "" or tab.page.is_hidden("#note"), "said nothing: the reader asked"


def test_the_item_page_links_to_the_item_in_the_feed(start_server, desktop):
    server = start_server(seed="80")
    tab = desktop(server)
    tab.page.goto(server.url + "/item.html?id=33")
    tab.page.get_by_role("link", name="Show in feed").click()
    tab.page.wait_for_selector("#feed article")
    tab.idle()
    tab.page.wait_for_function("() => document.activeElement?.dataset?.id === '33'")
    assert landed_on(tab, 33) is True


def burst_gap(server, tab):
    """The reader reads item 25 of 30; a burst of 60 comes; Refresh brings the newest page above a
    gap. Returns what was being read (id, top) before."""
    tab.swipe(400)
    tab.wait_still()
    before = reading(tab)
    http_json(server, "POST", "/api/demo/items", {"count": 60}, expect=201)
    tab.refresh_by(tab.page.click, "#refresh")
    return before


def test_a_gap_after_a_burst_is_a_row_filled_from_either_end_without_moving_what_is_read(start_server, phone):
    server = start_server(seed="30")
    tab = phone(server).open()
    before = burst_gap(server, tab)
    assert kept(reading(tab), before) is True, "the article read stays where it was"
    row = tab.page.locator(GAP)
    expect(row.get_by_role("button", name="Load 50 newer items")).to_have_count(1)
    assert tab.violations() == [], "the row and Back to newest, to axe-core"
    row.scroll_into_view_if_needed()
    tab.wait_still()
    read = reading(tab)
    row.get_by_role("button", name="From the top").tap()
    tab.idle()
    tab.frames()
    assert kept(reading(tab), read) is True, "filled from the top: nothing read moves"
    expect(row.get_by_role("button", name="Load 40 newer items")).to_have_count(1)
    row.get_by_role("button", name="Load 40 newer items").tap()
    tab.idle()
    tab.frames()
    expect(row.get_by_role("button", name="Load 30 newer items")).to_have_count(1)
    while tab.page.query_selector(GAP):
        tab.page.locator(GAP).get_by_role("button").first.tap()
        tab.idle()
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(90, 0, -1)), "the gap closed: every item once, in order"


def test_short_pages_are_not_the_end(start_server, desktop):
    server = start_server(seed="60")
    http_json(server, "PATCH", "/api/demo", {"shortPages": 1}, headers=MERGE, expect=200)
    tab = desktop(server).open()
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(60, 0, -1))


def test_an_expired_cursor_starts_over_from_the_newest_page_saying_so(start_server, phone):
    server = start_server("--clock", "manual:2026-01-01T00:00:00Z", seed="60")
    http_json(server, "PATCH", "/api/demo", {"cursorTtlSeconds": 60}, headers=MERGE, expect=200)
    tab = phone(server).open()
    tab.page.wait_for_function("""() => {  // the second page in: its cursor carries when it was issued
        if (document.querySelector('#feed article[data-id="41"]')) return true;
        scrollTo(0, document.documentElement.scrollHeight);
        return false;
    }""", polling=100)
    tab.idle()
    http_json(server, "POST", "/api/demo/clock", {"advance": "2m"}, expect=200)
    tab.page.wait_for_function("""() => {
        if (!document.getElementById('note').hidden) return true;
        scrollTo(0, document.documentElement.scrollHeight);
        return false;
    }""", polling=100)
    assert tab.text("#note") == "Your place in the feed expired: here are the newest items."
    tab.idle()
    assert tab.ids()[0] == 60 and tab.page.evaluate("scrollY") == 0

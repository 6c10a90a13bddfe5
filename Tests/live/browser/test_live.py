"""The live feed on the page: items posted from outside arrive over GET /api/events and wait
behind the "N new items" pill; a pull, the Refresh button or the pill brings them in. Real touch,
wheel, mouse and keys; the posts are HTTP requests from the test."""
import re

from playwright.sync_api import expect

from pulldownkit.client import http_json
from pulldownkit.events import Stream
from pulldownkit.waiting import wait_until

UPDATED = re.compile(r"^Last updated on \d\d/\d\d/\d{4} \d\d:\d\d [AP]M$")
STREAM_MS = 15_000  # a refused stream is tried again after 5 to 7.5 s

# Headless Chromium keeps every page visible: switching tabs, minimizing the window
# (Browser.setWindowBounds) and Page.setWebLifecycleState leave document.visibilityState
# "visible" and fire nothing. So a hidden tab is stood in for in the page: the two getters of the
# Page Visibility API report `hidden`, and the browser's own `visibilitychange` event is fired.
VISIBILITY = """{
    let hidden = false;
    Object.defineProperty(Document.prototype, 'hidden', { get: () => hidden, configurable: true });
    Object.defineProperty(Document.prototype, 'visibilityState',
        { get: () => hidden ? 'hidden' : 'visible', configurable: true });
    window.__setHidden = h => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
}"""


def post(server, title):
    return http_json(server, "POST", "/api/items", {"title": title, "body": "live", "author": "t"}, expect=201)[2]["id"]


def open_live(tab, query="", status=200):
    """Opens the page and waits until its stream is answered, so a post now reaches it."""
    with tab.page.expect_response(lambda r: "/api/events" in r.url) as stream:
        tab.open(query)
    assert stream.value.status == status
    return tab


def open_stream(server):
    """A stream the server accepted, or None when it refused one (every slot taken)."""
    stream = Stream(server)
    if stream.status == 200:
        return stream
    stream.close()
    return None


def stream_requests(tab):
    return [u for m, u in tab.requests if m == "GET" and "/api/events" in u]


def reading(tab):
    """scrollY, and the first article below the bar with its box on screen."""
    return tab.page.evaluate("""() => {
        const edge = document.querySelector('.bar').getBoundingClientRect().bottom;
        const a = [...document.querySelectorAll('#feed article')].find(a => a.getBoundingClientRect().bottom > edge);
        const r = a.getBoundingClientRect();
        return [scrollY, +a.dataset.id, r.top, r.height];
    }""")


def tap(tab, selector):
    """A finger's tap at the middle of `selector`."""
    box = tab.page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tab.touch("touchStart", x, y)
    tab.touch("touchEnd")


def wheel_down(tab, past_y):
    tab.page.mouse.move(200, 500)
    while tab.page.evaluate("scrollY") < past_y:
        tab.page.mouse.wheel(0, 600)
        tab.frames()
    at_rest(tab)
    tab.frames()   # the window has followed the last scroll


def at_rest(tab):
    """Waits until the page has stopped scrolling: scrollY the same across 200 ms and a frame (a
    flick's scrollend can come while the fling still moves the page on a busy machine)."""
    tab.page.wait_for_function("""() => new Promise(r => { const y = scrollY;
        setTimeout(() => requestAnimationFrame(() => r(scrollY === y)), 200); })""")


def test_a_post_from_outside_shows_the_pill_without_moving_anything_and_a_pull_brings_it(start_server, phone):
    server = start_server(seed="30")
    tab = open_live(phone(server))
    pill = tab.page.locator("#pill")
    expect(pill).to_be_hidden()
    before, ids = reading(tab), tab.ids()
    post(server, "Pushed from outside")
    expect(pill).to_have_text("1 new item")
    expect(pill).to_be_visible()
    assert reading(tab) == before, "the reader's place did not move"
    assert tab.ids() == ids, "nothing was inserted"
    expect(tab.page.locator("#news")).to_have_text("1 new item")  # said once, politely
    assert tab.page.get_attribute("#news", "aria-live") == "polite"
    assert tab.refresh_requests() == []

    tab.refresh_by(tab.touch_pull, 220, y=400)
    assert tab.page.text_content("#feed article h2") == "Pushed from outside"
    expect(pill).to_be_hidden()
    assert tab.status() == "1 new item"
    assert UPDATED.match(tab.page.text_content(".ptr-updated"))
    assert len(tab.refresh_requests()) == 1
    assert tab.errors == []


def test_the_pill_appears_deep_in_the_feed_without_moving_the_article_being_read(start_server, phone):
    server = start_server(seed="60")
    tab = open_live(phone(server))
    wheel_down(tab, 2500)
    before, ids = reading(tab), tab.ids()
    post(server, "While you read")
    expect(tab.page.locator("#pill")).to_have_text("1 new item")
    assert tab.page.locator("#pill").is_visible(), "it floats where the reader is"
    assert reading(tab) == before
    assert tab.ids() == ids


def test_tapping_the_pill_refreshes_and_goes_to_the_top(start_server, phone):
    server = start_server(seed="60")
    tab = open_live(phone(server))
    wheel_down(tab, 2500)
    new = post(server, "Tap to see me")
    expect(tab.page.locator("#pill")).to_be_visible()
    tab.refresh_by(tap, tab, "#pill")
    expect(tab.page.locator("#pill")).to_be_hidden()
    assert tab.page.evaluate("scrollY") == 0
    assert tab.ids()[0] == new
    assert tab.page.text_content("#feed article h2") == "Tap to see me"
    assert len(tab.refresh_requests()) == 1, "the same refresh as a pull"
    assert UPDATED.match(tab.page.text_content("#updated"))
    assert tab.page.evaluate("() => +document.activeElement.dataset.id") == new


def test_the_pill_is_a_button_the_keyboard_reaches(start_server, desktop):
    server = start_server(seed="20")
    tab = open_live(desktop(server))
    post(server, "one")
    newest = post(server, "two")
    expect(tab.page.locator("#pill")).to_have_text("2 new items")
    assert tab.tab_to("pill")
    assert tab.page.evaluate("() => document.activeElement.localName") == "button"
    tab.refresh_by(tab.page.keyboard.press, "Enter")
    assert tab.status() == "2 new items"
    expect(tab.page.locator("#pill")).to_be_hidden()
    assert tab.page.eval_on_selector_all("#feed article h2", "hs => hs.map(h => h.textContent)")[:2] == ["two", "one"]
    # The focus is not lost with the pill: it is on the newest item.
    assert tab.page.evaluate("() => +document.activeElement.dataset.id") == newest


def test_several_posts_are_counted_once_each_and_the_refresh_button_clears_them(start_server, desktop):
    server = start_server(seed="20")
    tab = open_live(desktop(server))
    tab.page.evaluate("""() => {
        const n = document.getElementById('news');
        window.__said = [];
        new MutationObserver(() => n.textContent && __said.push(n.textContent))
            .observe(n, { childList: true, characterData: true, subtree: true });
    }""")
    for i in range(3):
        post(server, f"burst {i}")
    expect(tab.page.locator("#pill")).to_have_text("3 new items")
    expect(tab.page.locator("#news")).to_have_text("3 new items")
    said = tab.page.evaluate("window.__said")
    assert said[-1] == "3 new items"
    assert len(said) == len(set(said)), f"each count said once at most: {said}"
    post(server, "one more")
    expect(tab.page.locator("#pill")).to_have_text("4 new items")

    tab.refresh_by(tab.page.click, "#refresh")
    assert tab.status() == "4 new items"
    expect(tab.page.locator("#pill")).to_be_hidden()
    assert tab.ids()[:4] == [24, 23, 22, 21]
    post(server, "after the refresh")
    expect(tab.page.locator("#pill")).to_have_text("1 new item")  # counted from the new top


def test_chinese_pill(start_server, phone):
    server = start_server(seed="20")
    tab = open_live(phone(server), "?lang=zh")
    post(server, "一")
    expect(tab.page.locator("#pill")).to_have_text("1 条新内容")
    post(server, "二")
    expect(tab.page.locator("#pill")).to_have_text("2 条新内容")
    expect(tab.page.locator("#news")).to_have_text("2 条新内容")


def test_a_hidden_tab_closes_its_stream_and_reopens_it_from_its_cursor(start_server, phone):
    # One stream at most, and a fast heartbeat, so a closed stream is noticed and its slot freed at once.
    server = start_server("--max-streams", "1", "--heartbeat-seconds", "0.2", seed="20")
    tab = phone(server)
    tab.context.add_init_script(VISIBILITY)
    open_live(tab)
    held = Stream(server)
    assert held.status == 503, "the page holds the one stream"
    held.close()

    tab.page.evaluate("() => __setHidden(true)")
    probe = wait_until(lambda: open_stream(server), interval=0.1)  # once the server has seen the page's socket gone
    assert probe, "the hidden page gave its stream back"
    missed = post(server, "while hidden")
    assert [i["id"] for i in probe.next_items().data["items"]] == [missed]
    probe_port = probe.sock.getsockname()[1]
    probe.close()
    assert len(stream_requests(tab)) == 1, "no stream while hidden"
    assert tab.page.locator("#pill").is_hidden()
    # The heartbeat finds the probe gone: the server lets its connection go and gives its slot back
    # (a moment later; a page refused meanwhile tries again, within STREAM_MS).
    assert wait_until(lambda: probe_port not in server.client_ports()), "the server kept the closed probe"

    tab.page.evaluate("() => __setHidden(false)")
    expect(tab.page.locator("#pill")).to_have_text("1 new item", timeout=STREAM_MS)
    assert stream_requests(tab)[-1].endswith("/api/events?after=20"), "reopened after what the page has"


def test_more_than_ten_missed_while_hidden_say_10_plus_and_a_refresh_starts_over(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server)
    tab.context.add_init_script(VISIBILITY)
    open_live(tab)
    tab.page.evaluate("() => __setHidden(true)")
    for i in range(12):
        post(server, f"missed {i}")
    tab.page.evaluate("() => __setHidden(false)")
    expect(tab.page.locator("#pill")).to_have_text("10+ new items")
    tab.refresh_by(tab.touch_pull, 220, y=400)
    expect(tab.page.locator("#pill")).to_be_hidden()
    # The refresh started over at the newest page. The window holds what covers the viewport
    # (fewer articles when they carry pictures), and it settles after the page is shown.
    tab.page.wait_for_function("() => document.querySelector('#feed article')?.dataset.id === '32'")
    tab.frames()
    ids = tab.ids()
    assert len(ids) >= 5 and ids == list(range(32, 32 - len(ids), -1)), ids


def test_a_refused_stream_shows_no_error_is_tried_again_and_the_pull_still_works(start_server, phone):
    server = start_server("--max-streams", "0", seed="20")  # every stream is refused with 503
    tab = open_live(phone(server), status=503)
    # EventSource gives up on a 503 for good; the page tries again later by itself, quietly.
    with tab.page.expect_request(lambda r: "/api/events" in r.url, timeout=STREAM_MS):
        post(server, "no stream needed")
        tab.refresh_by(tab.touch_pull, 220, y=400)
        assert tab.page.text_content("#feed article h2") == "no stream needed"
        assert tab.page.is_hidden("#error")
        assert tab.page.is_hidden("#pill")
    assert len(stream_requests(tab)) == 2
    assert tab.page.is_hidden("#error")

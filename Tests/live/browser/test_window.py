"""The windowed feed: a bounded DOM at any depth, the position kept across refresh, Back and reload,
the keyboard across the window's edge, and the wheel as a pull. Real wheel, mouse, touch and keys."""
from pulldownkit.client import http_json
from conftest import merge_window

ARTICLES = "() => document.querySelectorAll('#feed article').length"


WHEEL_PAUSE_MS = 150  # pull-to-refresh.js: a wheel still this long has ended its gesture


def wheel(tab, dy, times=1, x=200, y=500):
    """`times` wheel events, one a frame."""
    for _ in range(times):
        tab.wheel(dy, x, y)
        tab.frames(1)


def open_with_paused_clock(tab):
    """Opens the page with its clock under the test's control and stopped. A wheel gesture ends
    when its events are WHEEL_PAUSE_MS apart on the page's clock; on a busy machine real time
    between two events of one gesture can exceed that, so gestures are timed on this clock."""
    tab.page.clock.install()
    tab.open()
    tab.page.evaluate("() => { window.__wheels = 0; addEventListener('wheel', () => __wheels++, { capture: true }); }")
    tab.page.clock.pause_at(tab.page.evaluate("Date.now()") + 1000)
    return tab


def wheel_on_clock(tab, dy, times=1, x=200, y=500):
    """Wheel events 16 ms apart on the page's paused clock, however long each takes to arrive.
    Each is waited for until the page has handled it (page.mouse.wheel returns before that),
    then the clock runs the page's next frame."""
    tab.page.mouse.move(x, y)
    for _ in range(times):
        seen = tab.page.evaluate("__wheels")
        tab.page.mouse.wheel(0, dy)
        tab.page.wait_for_function("n => __wheels > n", arg=seen)
        tab.page.clock.run_for(16)


def reading(tab):
    """The first article below the bar, and its top on screen."""
    return tab.page.evaluate("""() => {
        const edge = document.querySelector('.bar').getBoundingClientRect().bottom;
        const a = [...document.querySelectorAll('#feed article')].find(a => a.getBoundingClientRect().bottom > edge);
        return [+a.dataset.id, a.getBoundingClientRect().top];
    }""")


def link_in_view(tab):
    """An article whose link is wholly on screen, below the bar and the sticky day header."""
    return tab.page.evaluate("""() => {
        const edge = document.querySelector('.bar').getBoundingClientRect().bottom
            + document.querySelector('#feed .day-head').getBoundingClientRect().height;
        const a = [...document.querySelectorAll('#feed article')].find(a => {
            const r = a.querySelector('footer a').getBoundingClientRect();
            return r.top >= edge && r.bottom <= innerHeight;
        });
        return +a.dataset.id;
    }""")


def top_of(tab, item_id):
    return tab.page.eval_on_selector(f"#feed article[data-id='{item_id}']", "a => a.getBoundingClientRect().top")


def scroll_deep(tab, below_id):
    """Wheels down until item `below_id` is in the DOM, and the wheel has come to rest."""
    while not tab.page.query_selector(f"#feed article[data-id='{below_id}']"):
        wheel(tab, 900)
        tab.frames()
    tab.wait_still()


def test_a_deep_scroll_keeps_the_dom_bounded_and_shows_every_id_once(start_server, phone):
    tab = phone(start_server(seed="400")).open()
    seen, most = [], 0
    while not seen or seen[-1] > 120:  # down through 280 items by the wheel
        wheel(tab, 700)
        tab.frames()
        seen = merge_window(seen, tab.ids())
        most = max(most, tab.page.evaluate(ARTICLES))
    assert seen == list(range(400, seen[-1] - 1, -1))
    back = []
    while tab.page.evaluate("scrollY") > 0:  # and back up: what was there is there again
        wheel(tab, -700)
        tab.frames()
        back = merge_window(back, tab.ids(), upward=True)
        most = max(most, tab.page.evaluate(ARTICLES))
    assert back[0] == 400
    assert back == list(range(400, back[-1] - 1, -1))
    assert back[-1] <= 125
    assert most <= 50
    assert tab.page.evaluate("document.querySelectorAll('#feed .day-head').length") <= 3
    assert tab.page.get_attribute("#feed article", "aria-posinset") == "1"
    assert tab.errors == []


def test_a_refresh_while_deep_keeps_the_article_being_read(start_server, desktop):
    server = start_server(seed="200")
    tab = desktop(server).open()
    scroll_deep(tab, 150)
    item_id, top = reading(tab)
    for i in range(3):
        http_json(server, "POST", "/api/items", {"title": f"new {i}", "body": "b", "author": "t"}, expect=201)
    tab.refresh_by(tab.page.click, "#refresh")
    assert tab.status() == "3 new items"
    assert abs(top_of(tab, item_id) - top) <= 2
    assert tab.page.get_attribute(f"#feed article[data-id='{item_id}']", "aria-posinset") == str(200 - item_id + 4)
    tab.page.evaluate("() => scrollTo(0, 0)")
    tab.frames()
    assert tab.ids()[:4] == [203, 202, 201, 200]


def test_back_and_reload_come_back_to_the_same_article(start_server, phone):
    tab = phone(start_server(seed="300")).open()
    scroll_deep(tab, 200)
    item_id, top = reading(tab)
    opened = link_in_view(tab)  # clicking a link off screen would scroll the page before it leaves
    title = tab.page.text_content(f"#feed article[data-id='{opened}'] h2")
    tab.page.click(f"#feed article[data-id='{opened}'] footer a")
    tab.page.wait_for_url("**/item.html?id=*")
    tab.page.wait_for_selector("#item article")
    assert tab.page.text_content("#item article h2") == title
    assert tab.page.text_content("#back") == "Back to the feed"

    for come_back in (tab.page.go_back, tab.page.reload):
        pages_before = len(tab.requests)
        come_back()
        tab.page.wait_for_selector(f"#feed article[data-id='{item_id}']")
        tab.frames()
        assert abs(top_of(tab, item_id) - top) <= 3
        assert tab.page.get_attribute(f"#feed article[data-id='{item_id}']", "aria-posinset") == str(300 - item_id + 1)
        pages = [u for m, u in tab.requests[pages_before:] if m == "GET" and "/api/items" in u]
        assert len(pages) <= 3, pages  # the window around the article, not every page from the top
    # Scrolling up from there fetches what is above again, in order.
    back = []
    while tab.page.evaluate("scrollY") > 0:
        wheel(tab, -800)
        tab.page.wait_for_function("() => !document.querySelector('#feed .skeleton')")
        tab.frames()
        back = merge_window(back, tab.ids(), upward=True)
    assert back == list(range(300, back[-1] - 1, -1))
    assert tab.errors == []


def test_page_down_moves_article_to_article_across_the_window(start_server, desktop):
    tab = desktop(start_server(seed="200")).open()
    tab.page.click("#feed article:first-of-type h2")
    active = "() => +document.activeElement.dataset.id"
    assert tab.page.evaluate(active) == 200
    for expected in range(199, 139, -1):
        # Loaded: a Page Down on the last article loaded, while the next page is on its way, has
        # nowhere to go (once in five runs on a busy machine).
        tab.page.wait_for_selector(f"#feed article[data-id='{expected}']", state="attached")
        tab.page.keyboard.press("PageDown")
        tab.page.wait_for_function(f"() => +document.activeElement.dataset.id === {expected}")
        tab.frames()
    assert tab.page.evaluate(ARTICLES) <= 50
    assert 200 not in tab.ids()
    for expected in range(141, 201):
        tab.page.keyboard.press("PageUp")
        tab.page.wait_for_function(f"() => +document.activeElement.dataset.id === {expected}")
    assert tab.page.evaluate("document.activeElement.localName") == "article"


def test_focus_stays_on_an_article_when_the_focused_one_leaves_the_window(start_server, desktop):
    tab = desktop(start_server(seed="200")).open()
    tab.page.click("#feed article:first-of-type h2")
    scroll_deep(tab, 120)
    assert 200 not in tab.ids()
    assert tab.page.evaluate("document.activeElement.localName") == "article"


def test_a_wheel_pull_at_the_top_refreshes_once(start_server, desktop):
    server = start_server(seed="20")
    tab = open_with_paused_clock(desktop(server))
    http_json(server, "POST", "/api/items", {"title": "Pulled by the wheel", "body": "b", "author": "t"}, expect=201)
    wheel_on_clock(tab, -60, x=640)
    tab.wait_state("pulling")
    assert tab.status() == "Pull down to refresh…"
    wheel_on_clock(tab, -60, times=2, x=640)
    tab.wait_state("armed")
    assert tab.status() == "Release to refresh…"
    tab.page.clock.run_for(WHEEL_PAUSE_MS + 50)  # the wheel pauses: the panel is released
    tab.page.clock.resume()
    # The release started the refresh while the clock stood still: wait for it to have ended.
    tab.page.wait_for_function("() => __states.includes('refreshing') && __states.at(-1) === 'idle'")
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]
    assert tab.status() == "1 new item"
    assert tab.page.text_content("#feed article h2") == "Pulled by the wheel"
    assert len(tab.refresh_requests()) == 1


def test_a_short_wheel_pull_springs_back(start_server, desktop):
    tab = open_with_paused_clock(desktop(start_server(seed="20")))
    wheel_on_clock(tab, -80, x=640)
    tab.wait_state("pulling")  # held there: the pause that releases it is the test's to run
    tab.page.clock.run_for(WHEEL_PAUSE_MS + 50)
    tab.wait_state("idle")
    tab.page.clock.resume()
    tab.settled()  # sprung back: a refresh, were one started, would have begun by now
    assert tab.states() == ["idle", "pulling", "idle"]
    assert tab.refresh_requests() == []
    assert tab.page.eval_on_selector("#list", "l => l.style.transform") == ""


def test_a_wheel_scroll_below_the_top_never_pulls_even_when_it_coasts_to_the_top(start_server, desktop):
    tab = open_with_paused_clock(desktop(start_server(seed="40")))
    wheel_on_clock(tab, 700, x=640)
    tab.page.wait_for_function("() => scrollY > 500")
    tab.page.clock.run_for(300)  # that gesture is over
    wheel_on_clock(tab, -100, times=3, x=640)  # up, still below the top
    tab.page.clock.run_for(300)
    wheel_on_clock(tab, -60, times=40, x=640)  # a long coast that reaches the top and goes on
    tab.page.wait_for_function("() => scrollY === 0")
    tab.page.clock.run_for(500)
    assert tab.states() == ["idle"]
    assert tab.refresh_requests() == []
    wheel_on_clock(tab, 300, x=640)  # a normal scroll down from the top is a scroll
    tab.page.wait_for_function("() => scrollY > 100")
    tab.page.clock.run_for(500)
    assert tab.states() == ["idle"]


def test_chinese_texts_of_the_windowed_feed(start_server, phone):
    tab = phone(start_server(seed="15")).open("?lang=zh")
    assert tab.page.text_content(".day-head") == "今天"
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_function("() => document.getElementById('more-text').textContent === '没有更多了'")
    tab.page.click("#feed article:last-of-type footer a")
    tab.page.wait_for_selector("#item article")
    assert tab.page.text_content("#back") == "返回列表"
    assert tab.page.get_attribute("html", "lang") == "zh-CN"

"""What the reader sees while waiting and reading: skeleton rows that the articles replace in
place, times as "2 minutes ago" on an injected clock, the "N new items" pill clear of the day
headers, links in the page's colours, and axe-core finding nothing in any state, light or dark."""
import datetime
import re

import pytest
from playwright.sync_api import expect

from pulldownkit.client import http_json
from conftest import Hold, without_feed

# Every skeleton: the item it stands for (none in the loading row), its top in the document, its
# height with the gap below it, and what assistive technology is told: an article being loaded
# in the feed, nothing in the loading row.
SKELETONS = """() => [...document.querySelectorAll('.skeleton')].map(n => { const r = n.getBoundingClientRect();
    return { id: n.dataset.id || null, top: r.top + scrollY, bottom: r.bottom, outer: r.height + parseFloat(getComputedStyle(n).marginBottom),
             told: n.ariaHidden === 'true' ? 'nothing' : `${n.role} ${n.ariaBusy} ${n.ariaLabel}`,
             onScreen: r.bottom > 0 && r.top < innerHeight }; })"""
# Each article's top in the document and height with its gap, by id.
ARTICLES = """() => Object.fromEntries([...document.querySelectorAll('#feed article')].map(a => { const r = a.getBoundingClientRect();
    return [a.dataset.id, { top: r.top + scrollY, outer: r.height + parseFloat(getComputedStyle(a).marginBottom) }]; }))"""
SKELETON_ON_SCREEN = """() => [...document.querySelectorAll('#feed .skeleton')].some(n => {
    const r = n.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })"""
FEED_IDLE = "() => document.getElementById('feed').ariaBusy === 'false'"
NO_SKELETONS = "() => !document.querySelector('.skeleton')"


def test_skeleton_rows_hold_the_place_of_a_first_page_the_page_could_not_carry(start_server, phone):
    tab = phone(start_server(seed="30"))
    without_feed(tab)
    slow = Hold(tab.page, "**/api/items*")
    tab.open(wait_items=False)
    tab.page.wait_for_selector("#wait .skeleton", state="visible")
    rows = tab.page.evaluate(SKELETONS)
    assert all(r["told"] == "nothing" for r in rows)
    assert rows[-1]["bottom"] >= tab.page.evaluate("innerHeight"), "a screenful"
    assert len({r["outer"] for r in rows}) == 1 and 80 <= rows[0]["outer"] <= 200, rows
    assert tab.page.get_attribute("#feed", "aria-busy") == "true"
    assert tab.violations() == []
    slow.release()
    tab.page.wait_for_selector("#feed article")
    assert tab.page.evaluate(NO_SKELETONS)
    first_row = tab.page.eval_on_selector("#feed .day-head", "h => h.getBoundingClientRect().top + scrollY")
    assert abs(first_row - rows[0]["top"]) <= 1, "the feed starts where the skeletons did"


def test_skeleton_rows_wait_for_a_slow_page_and_the_articles_take_their_place(start_server, phone):
    tab = phone(start_server(seed="20"))  # two pages: once the held one is in, nothing more loads
    slow = Hold(tab.page, "**/api/items?*", when=lambda url: "before=" in url)
    tab.open()  # the first page came with `/`
    for _ in range(40):  # the wheel, which coasts no further than it is turned, until the skeletons show
        if any(r["onScreen"] for r in tab.page.evaluate(SKELETONS)):
            break
        tab.scroll_by(tab.wheel, 300)
    tab.wait_still()
    rows = tab.page.evaluate(SKELETONS)
    assert rows and all(r["id"] is None and r["told"] == "nothing" for r in rows), rows
    assert tab.page.get_attribute("#more", "data-state") == "loading"
    measured = [a["outer"] for a in tab.page.evaluate(ARTICLES).values()]
    assert min(measured) - 1 <= rows[0]["outer"] <= max(measured) + 1, "as tall as the articles are guessed to be"
    last = min(tab.ids())
    reading = tab.page.evaluate("() => [scrollY, document.querySelector('#feed article').getBoundingClientRect().top]")
    assert tab.violations() == []

    slow.release()
    tab.page.wait_for_function(FEED_IDLE)
    assert tab.page.evaluate(NO_SKELETONS)
    first_new = tab.page.eval_on_selector(f"#feed article[data-id='{last}']",
                                          "a => a.nextElementSibling.getBoundingClientRect().top + scrollY")
    assert abs(first_new - rows[0]["top"]) <= 1, "the next page starts where the skeletons did"
    assert tab.page.evaluate("() => scrollY") == reading[0], "nothing on screen moved"
    assert tab.errors == []


def test_skeletons_as_tall_as_their_articles_hold_the_window_after_a_jump_deep_into_the_feed(start_server, desktop):
    tab = desktop(start_server(seed="300")).open()
    tab.page.mouse.click(640, 20)  # the bar: the keys scroll the page
    for _ in range(60):  # End, page after page, to the end of the feed
        if tab.page.text_content("#more-text") == "No more items":
            break
        tab.scroll_by(tab.page.keyboard.press, "End")  # the scroll reaches the row under the feed
        tab.page.wait_for_function(FEED_IDLE)
    for _ in range(20):  # End until the last article is drawn, so measured: the bottom moves as they are
        if tab.page.query_selector("#feed article[data-id='1']"):
            break
        tab.scroll_by(tab.page.keyboard.press, "End")  # the scroll reaches the bottom
        tab.frames()
    tab.wait_still()
    assert tab.page.query_selector("#feed article[data-id='1']")
    tab.page.keyboard.press("Home")
    tab.page.wait_for_function("() => scrollY === 0")
    # Down to the 76th article with its text: the page then holds more than the 150 items of text
    # it keeps, and drops the end's, however many Home's scroll fetched on its way up.
    for _ in range(40):
        if tab.page.query_selector("#feed article[data-id='225']"):
            break
        tab.scroll_by(tab.wheel, 2000, x=640, y=400)
    tab.wait_still()  # an End pressed while a smooth scroll was ending scrolled nothing
    tab.page.wait_for_function(NO_SKELETONS)
    assert tab.page.query_selector("#feed article[data-id='225']")
    slow = Hold(tab.page, "**/api/items?*")

    tab.page.keyboard.press("End")  # the jump: the window's text is fetched again, slowly
    tab.page.wait_for_function(SKELETON_ON_SCREEN)
    tab.wait_still()
    rows = [r for r in tab.page.evaluate(SKELETONS) if r["onScreen"]]
    assert rows and all(r["id"] and r["told"] == "article true Loading…" for r in rows), rows
    assert tab.violations() == []
    slow.release()
    tab.page.wait_for_function(NO_SKELETONS)
    articles = tab.page.evaluate(ARTICLES)
    for r in rows:
        a = articles[r["id"]]
        assert abs(a["top"] - r["top"]) <= 1 and abs(a["outer"] - r["outer"]) <= 1, (r, a)
    assert tab.errors == []


# The day headers' texts the pill covers, and whether it stands inside the headers' row: the
# sticky one under the bar once scrolled, the first header at the very top.
PILL = """() => { const p = document.getElementById('pill').getBoundingClientRect(), r = document.createRange();
    const heads = [...document.querySelectorAll('#feed .day-head')];
    const covered = heads.filter(h => { r.selectNodeContents(h); return [...r.getClientRects()].some(t =>
        t.left < p.right && p.left < t.right && t.top < p.bottom && p.top < t.bottom); }).map(h => h.textContent);
    const edge = document.querySelector('.bar').getBoundingClientRect().bottom, first = heads[0].getBoundingClientRect();
    const row = scrollY > 0 ? [edge, edge + first.height] : [first.top, first.bottom];
    return { covered, inRow: row[0] <= p.top && p.bottom <= row[1], shown: p.height > 0 }; }"""
STICKY = """() => { const edge = document.querySelector('.bar').getBoundingClientRect().bottom;
    return [...document.querySelectorAll('.day-head')].find(h => Math.abs(h.getBoundingClientRect().top - edge) < 1)?.textContent; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_new_items_pill_never_covers_a_day_header(start_server, phone, lang):
    server = start_server(seed="150")  # days enough that two dated headers reach the top at any hour
    tab = phone(server).open(f"?lang={lang}")
    for i in range(3):
        http_json(server, "POST", "/api/items", {"title": f"new {i}", "body": "b", "author": "t"}, expect=201)
    tab.page.wait_for_selector("#pill", state="visible")
    assert tab.page.evaluate(PILL) == {"covered": [], "inRow": True, "shown": True}, "at the top"
    tab.page.mouse.move(200, 500)
    dated = set()  # the dated headers that have stuck under the bar: one pushed the other out
    for _ in range(600):  # the wheel in small steps (the cards' pictures make the days tall), checking every frame
        if len(dated) == 2:
            break
        tab.page.mouse.wheel(0, 100)
        tab.frames()
        assert tab.page.evaluate(PILL) == {"covered": [], "inRow": True, "shown": True}, f"at {tab.page.evaluate('scrollY')}"
        label = tab.page.evaluate(STICKY) or ""
        if re.search(r"\d{4}", label):
            dated.add(label)
    assert len(dated) == 2, f"dated headers reached: {dated}"
    assert tab.violations() == []


def clock_text(tab, item_id):
    return tab.page.text_content(f"#feed article[data-id='{item_id}'] time")


@pytest.mark.parametrize("lang, now, minutes, hours, clock", [
    ("en", "now", "2 minutes ago", "3 hours ago", r"\d\d:\d\d [AP]M"),
    ("zh", "现在", "2分钟前", "3小时前", r"\d\d:\d\d"),
])
def test_recent_times_say_how_long_ago_and_keep_up_while_the_page_is_open(start_server, phone, lang, now, minutes,
                                                                          hours, clock):
    server = start_server(seed="5")
    _, _, item = http_json(server, "POST", "/api/items", {"title": "Just posted", "body": "b", "author": "t"}, expect=201)
    created = datetime.datetime.fromisoformat(item["createdAt"].replace("Z", "+00:00"))
    tab = phone(server)
    tab.page.clock.install(time=created + datetime.timedelta(seconds=5))
    tab.open(f"?lang={lang}")
    tab.page.clock.pause_at(created + datetime.timedelta(seconds=10))
    assert clock_text(tab, item["id"]) == now
    tab.page.clock.run_for(2 * 60_000)
    assert clock_text(tab, item["id"]) == minutes
    tab.page.clock.run_for(3 * 3600_000)
    assert clock_text(tab, item["id"]) == hours
    tab.page.clock.run_for(21 * 3600_000)
    assert re.fullmatch(clock, clock_text(tab, item["id"])), "a day on: the clock time"
    assert tab.page.get_attribute(f"#feed article[data-id='{item['id']}'] time", "datetime") == item["createdAt"]


@pytest.mark.parametrize("lang, shown", [("en", r"May 1, 2025, \d\d:\d\d [AP]M"), ("zh", r"2025年5月1日 \d\d:\d\d")])
def test_an_old_item_on_its_own_page_shows_its_date(start_server, phone, tmp_path, lang, shown):
    """The feed writes an old item's clock time under its day's header; its own page has no header."""
    data = tmp_path / "old.json"
    data.write_text('[{"title": "From last year", "createdAt": "2025-05-01T12:00:00Z"}]')
    tab = phone(start_server("--data", str(data)))
    tab.page.goto(f"{tab.server.url}/item.html?id=1&lang={lang}")
    time = tab.page.locator("#item article time")
    expect(time).to_have_attribute("datetime", "2025-05-01T12:00:00Z")
    assert re.fullmatch(shown, time.text_content()), time.text_content()
    assert tab.violations() == []


# A link's colour, and what the page itself paints in: the footer's muted text, the accent.
COLOURS = """() => { const c = n => getComputedStyle(n).color, link = document.querySelector('#feed article footer a');
    return { link: c(link), footer: c(link.parentElement), accent: getComputedStyle(document.getElementById('refresh')).backgroundColor }; }"""
BROWSER_LINKS = {"rgb(0, 0, 238)", "rgb(85, 26, 139)", "rgb(158, 158, 255)", "rgb(208, 173, 240)"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_links_are_in_the_pages_colours(start_server, phone, scheme):
    tab = phone(start_server(seed="5"), color_scheme=scheme).open()
    colours = tab.page.evaluate(COLOURS)
    assert colours["link"] == colours["footer"], colours
    assert colours["link"] not in BROWSER_LINKS
    tab.page.click("#feed article footer a")
    tab.page.wait_for_selector("#item article")
    back = tab.page.eval_on_selector("#back", "a => getComputedStyle(a).color")
    assert back == colours["accent"] and back not in BROWSER_LINKS
    assert tab.violations() == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_any_state_of_the_feed(start_server, phone, scheme):
    server = start_server("--delay-ms", "800", seed="25")
    tab = phone(server, color_scheme=scheme)
    failed = []

    def fail_the_second_refresh(route):
        failed.append(1)
        url = route.request.url
        if len(failed) == 2:
            url += ("&" if "?" in url else "?") + "_fail=503"
        route.continue_(url=url)
    tab.page.route("**/api/refresh*", fail_the_second_refresh)
    tab.open()
    found = {"idle": tab.violations()}
    tab.touch_pull(100, release=False)
    tab.wait_state("pulling")
    found["pulling"] = tab.violations()
    tab.touch("touchMove", 200, 250 + 220)
    tab.wait_state("armed")
    found["armed"] = tab.violations()
    tab.touch("touchEnd")
    tab.wait_state("refreshing")
    found["refreshing"] = tab.violations()
    tab.wait_state("idle")
    tab.page.click("#refresh")
    tab.wait_state("idle")
    tab.page.wait_for_selector("#error", state="visible")
    found["refresh failed"] = tab.violations()
    http_json(server, "POST", "/api/items", {"title": "new", "body": "b", "author": "t"}, expect=201)
    tab.page.wait_for_selector("#pill", state="visible")
    found["pill"] = tab.violations()
    tab.page.click(".compose summary")
    tab.page.wait_for_selector("#compose input[name=title]")
    found["post form"] = tab.violations()
    slow = Hold(tab.page, "**/api/items?*", when=lambda url: "before=" in url)
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_selector("#wait .skeleton")
    found["loading more"] = tab.violations()
    slow.release()
    tab.scroll_to_end()
    found["end"] = tab.violations()
    assert found == {state: [] for state in found}

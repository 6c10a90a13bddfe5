"""The newest page arrives inside `/`: painted before any script runs, then taken over by the
script as it is (no second request for it, no article built twice), and the feed goes on from it."""
import re

import pytest
from pulldownkit.client import http_json


# Every article element added to the document, by the parser or by a script, in order.
RECORD_ARTICLES = """
    window.__articles = [];
    new MutationObserver(records => {
      for (const r of records) for (const n of r.addedNodes) if (n.localName === 'article') __articles.push(n);
    }).observe(document, { childList: true, subtree: true });
"""
# An element's tags and attribute names, its children's too: what markup it is, not what it says.
SHAPE = """a => { const shape = n => `${n.localName}[${[...n.attributes].map(x => x.name).filter(x => x !== 'class')
    .sort()}](${[...n.children].map(shape)})`; return shape(a); }"""
# Each day header is right above the first article of a local day, and nowhere else.
HEADERS_FOLLOW_LOCAL_DAYS = """() => {
    const day = a => new Date(a.querySelector('time').dateTime).toDateString();
    let last = null, ok = true;
    for (const n of document.getElementById('feed').children) {
      if (n.localName !== 'article') continue;
      const opens = day(n) !== last, headed = n.previousElementSibling?.className === 'day-head';
      ok &&= opens === headed;
      last = day(n);
    }
    return ok;
}"""


@pytest.mark.parametrize("path", ["/", "/item.html?id=3"])
def test_the_styles_come_inside_the_page_and_its_policy_lets_them_apply(start_server, phone, path):
    server = start_server(seed="5")
    tab = phone(server)
    tab.context.add_init_script("window.__refused = []; addEventListener('securitypolicyviolation',"
                                " e => __refused.push(e.violatedDirective));")
    tab.page.goto(server.url + path)
    tab.page.wait_for_selector("article")
    # The stylesheet applies (the bar sticks) without a request for one: no round trip before the paint.
    assert tab.page.evaluate("getComputedStyle(document.querySelector('.bar')).position") == "sticky"
    assert [url for _, url in tab.requests if url.endswith(".css")] == []
    assert tab.page.evaluate("document.querySelectorAll('link[rel=stylesheet]').length") == 0
    # A violation report is an event of its own, queued when the style is refused: the load event
    # and two frames later it has been delivered.
    tab.page.wait_for_function("() => document.readyState === 'complete'")
    tab.frames()
    assert tab.page.evaluate("__refused") == []
    assert tab.errors == []


def test_the_newest_page_is_there_without_any_script(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server, java_script_enabled=False)
    tab.page.goto(server.url + "/")
    articles = tab.page.locator("#feed article")
    assert [int(x) for x in articles.evaluate_all("as => as.map(a => a.dataset.id)")] == list(range(20, 10, -1))
    _, _, newest = http_json(server, "GET", "/api/items/20", expect=200)
    assert articles.first.locator("h2").text_content() == newest["title"]
    assert articles.first.is_visible(), "styled and on screen"
    assert re.fullmatch(r"\d\d:\d\d UTC", articles.first.locator("time").text_content())
    assert articles.first.locator("a").get_attribute("href") == "/item.html?id=20"
    assert tab.page.locator(".day-head").first.is_visible()


def test_the_script_takes_over_the_page_without_asking_for_it_or_building_it_again(start_server, phone):
    server = start_server(seed="50")
    tab = phone(server)
    tab.page.add_init_script(RECORD_ARTICLES)
    # The stream is the last thing the script asks for once the feed is in: after it, and the next
    # page that the end being near asks for, it asks for nothing more.
    with tab.page.expect_request(lambda r: "/api/events" in r.url):
        tab.open("?lang=en")
    tab.idle()
    added = tab.page.evaluate("() => __articles.map(a => +a.dataset.id)")
    assert added[:10] == list(range(50, 40, -1)), "the server's articles came first"
    assert len(added) == len(set(added)), f"an article was built twice: {added}"
    assert tab.page.evaluate("() => __articles.slice(0, 10).filter(a => a.isConnected).length") >= 5, \
        "the articles on screen are the server's own nodes"
    first_page = [u for m, u in tab.requests if m == "GET" and re.search(r"/api/items(\?(?!.*before=).*)?$", u)]
    assert first_page == [], "the first page is not asked for again"
    assert tab.page.locator("#first-page").count() == 0
    time = tab.page.locator("#feed article").first.locator("time")
    assert not time.text_content().endswith("UTC"), "the time is the reader's own"
    assert tab.page.get_attribute("#feed article a", "href") == "/item.html?id=50&lang=en"
    assert tab.page.evaluate("() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
                             " return ids.length === new Set(ids).size; }"), "an element id twice"
    assert tab.page.get_attribute("#feed article", "aria-posinset") == "1"
    assert tab.errors == []


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "America/Los_Angeles"])
def test_day_headers_follow_the_readers_days_not_the_servers(start_server, phone, zone):
    tab = phone(start_server(seed="30"), timezone_id=zone).open()
    assert tab.page.evaluate(HEADERS_FOLLOW_LOCAL_DAYS)
    assert tab.page.text_content(".day-head") in ("Today", "Yesterday") or tab.page.text_content(".day-head")[:3] in (
        "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
    assert "UTC" not in tab.page.text_content("#feed")


def test_from_the_served_page_the_feed_scrolls_to_its_end_and_a_pull_adds_an_article_of_the_same_markup(
        start_server, phone):
    server = start_server(seed="35")
    tab = phone(server).open()
    tab.scroll_to_end()
    assert tab.read_feed() == list(range(35, 0, -1))
    # Item 35 is a demo item with an avatar and no image: the pulled-in one has the same fields.
    http_json(server, "POST", "/api/items", {"title": "Pulled in", "body": "b", "author": "t",
                                             "avatar": "/media/demo/avatar-0.png"}, expect=201)
    tab.page.evaluate("() => scrollTo(0, 0)")
    tab.frames()
    tab.refresh_by(tab.touch_pull, 220)
    assert tab.status() == "1 new item"
    assert tab.ids()[:2] == [36, 35]
    built = tab.page.eval_on_selector("#feed article[data-id='36']", SHAPE)
    served = tab.page.eval_on_selector("#feed article[data-id='35']", SHAPE)
    assert built == served, "the script's article and the server's are the same markup"
    assert tab.errors == []


# What an article says: its texts, its time, its pictures' attributes.
SAYS = """a => ({ title: a.querySelector('h2').textContent, body: a.querySelector('p').textContent,
    footer: a.querySelector('footer').firstChild.data, time: a.querySelector('time').dateTime,
    pictures: [...a.querySelectorAll('img')].map(i => Object.fromEntries([...i.attributes].map(x => [x.name, x.value]))) })"""


def test_an_article_of_the_served_page_that_leaves_the_window_comes_back_as_the_servers_own(start_server, phone):
    server = start_server(seed="40")
    tricky = 'A "quoted" <b>bold</b> & \'apostrophe\' · text'
    http_json(server, "POST", "/api/items", {
        "title": tricky, "body": tricky + "\nand a second line", "author": "Ada · Lovelace",
        "avatar": "/media/demo/avatar-0.png",
        "image": {"url": "/media/demo/image-1.png?a=1&b=2", "width": 901, "height": 1600, "alt": tricky}}, expect=201)
    http_json(server, "POST", "/api/items", {"title": "No pictures", "body": "", "author": "Bo"}, expect=201)
    tab = phone(server).open()
    served = [tab.page.eval_on_selector(f"#feed article[data-id='{i}']", SAYS) for i in (42, 41)]
    tab.page.eval_on_selector_all("#feed article", "as => as.forEach(a => { a.servedNode = true; })")
    assert served[1]["title"] == tricky and served[1]["footer"] == "Ada · Lovelace · "
    tab.scroll_to_end()
    assert 42 not in tab.ids() and 41 not in tab.ids(), "the served articles have left the window"
    tab.page.evaluate("() => scrollTo(0, 0)")
    tab.page.wait_for_selector("#feed article[data-id='41']")
    rebuilt = [tab.page.eval_on_selector(f"#feed article[data-id='{i}']", SAYS) for i in (42, 41)]
    assert rebuilt == served
    assert tab.page.eval_on_selector("#feed article[data-id='42']", "a => a.servedNode") is True, \
        "the server's node is put back, not built again from text the page was not sent twice"
    assert tab.errors == []


def test_an_item_with_an_own_field_named_like_the_pages_own_words_is_drawn_like_any_other(start_server, phone):
    server = start_server(seed="3")
    tab = phone(server).open()
    http_json(server, "POST", "/api/items", {"title": "Own fields", "article": "not a node", "node": 1, "items": []},
              expect=201)
    tab.refresh_by(tab.touch_pull, 220)
    assert tab.status() == "1 new item"
    assert tab.page.locator("#feed article[data-id='4'] h2").text_content() == "Own fields"
    assert tab.errors == []

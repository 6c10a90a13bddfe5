"""Items edited and deleted under the reader, on the page: an edited article changes in place with
an "edited" mark; a deleted one leaves without moving the article being read (±2 px), in the
windowed list and in the served first page; and a pull applies what a closed stream missed. Real
wheel and touch input; the edits and deletions are HTTP requests from the test."""
from playwright.sync_api import expect

from pulldownkit.client import http_json
from test_live import VISIBILITY, open_live, reading, wheel_down
from test_window import link_in_view, scroll_deep, top_of

# The read article's place may move by a rounding of a px, nothing more.
STILL_PX = 2


def edit(server, item_id, fields):
    return http_json(server, "PATCH", f"/api/items/{item_id}", fields, expect=200)[2]


def delete(server, item_id):
    http_json(server, "DELETE", f"/api/items/{item_id}", expect=204)


def gone(tab, item_id):
    """Waits until the page has taken item `item_id` out (it had it in the DOM), then a frame."""
    expect(tab.page.locator(f"#feed article[data-id='{item_id}']")).to_have_count(0)
    tab.frames()


def test_an_edited_article_changes_in_place_with_an_edited_mark(start_server, desktop):
    server = start_server(seed="30")
    tab = open_live(desktop(server))
    article = tab.page.locator("#feed article[data-id='28']")
    expect(article.locator(".edited")).to_have_count(0)
    before = top_of(tab, 27)
    edit(server, 28, {"title": "Reworded while you read", "likes": 9})
    expect(article.locator("h2")).to_have_text("Reworded while you read")
    expect(article.locator(".edited")).to_have_text("edited")
    assert article.locator(".edited").get_attribute("title"), "the edit's local time, on hover"
    assert abs(top_of(tab, 27) - before) <= STILL_PX, "a title of one line for one of one line"
    assert tab.ids()[:3] == [30, 29, 28], "in its place"
    assert tab.errors == []


def test_a_deleted_article_leaves_without_moving_the_one_being_read(start_server, desktop):
    server = start_server(seed="300")
    tab = open_live(desktop(server))
    wheel_down(tab, 6000)
    _, read, top, _ = reading(tab)
    ids = tab.ids()
    # One drawn above it, in the window.
    above = ids[ids.index(read) - 2]
    delete(server, above)
    gone(tab, above)
    assert abs(top_of(tab, read) - top) <= STILL_PX
    # One far above, out of the window: only the spacer that stands for it shrinks.
    far = 299
    assert far not in tab.ids()
    spacer = tab.page.evaluate("() => document.getElementById('feed').firstElementChild.getBoundingClientRect().height")
    delete(server, far)
    tab.page.wait_for_function("h => document.getElementById('feed').firstElementChild.getBoundingClientRect().height < h",
                               arg=spacer)
    tab.frames()
    assert abs(top_of(tab, read) - top) <= STILL_PX
    # One below it.
    below = tab.ids()[tab.ids().index(read) + 1]
    delete(server, below)
    gone(tab, below)
    assert abs(top_of(tab, read) - top) <= STILL_PX
    # The read one itself: the one after it stays where it was.
    after = tab.ids()[tab.ids().index(read) + 1]
    after_top = top_of(tab, after)
    delete(server, read)
    gone(tab, read)
    assert abs(top_of(tab, after) - after_top) <= STILL_PX
    assert tab.errors == []


def test_in_the_served_first_page_a_deleted_article_above_moves_nothing_either(start_server, desktop):
    # The wheel, not a flick: a flick that reaches the end of the page keeps coasting, pressed
    # against it, and scrolls on as soon as a deletion makes room.
    server = start_server(seed="300")
    tab = open_live(desktop(server))
    wheel_down(tab, 500)
    _, read, top, _ = reading(tab)
    assert 291 <= read < 298, "reading in the served page, below its first articles"
    delete(server, 300)
    gone(tab, 300)
    assert abs(top_of(tab, read) - top) <= STILL_PX
    assert tab.errors == []


def test_a_pull_applies_the_edits_and_deletions_a_closed_stream_missed(start_server, phone):
    server = start_server(seed="30")
    tab = phone(server)
    tab.context.add_init_script(VISIBILITY)
    open_live(tab)
    tab.page.evaluate("() => __setHidden(true)")   # the stream closes: nothing is pushed now
    edited = edit(server, 29, {"title": "Edited while the stream was closed"})
    delete(server, 28)
    tab.frames()
    expect(tab.page.locator("#feed article[data-id='28']")).to_have_count(1)
    with tab.page.expect_response(lambda r: "/api/refresh" in r.url) as answered:
        tab.refresh_by(tab.touch_pull, 220)
    assert [c["type"] for c in answered.value.json()["changed"]] == ["updated", "deleted"]
    expect(tab.page.locator("#feed article[data-id='29'] h2")).to_have_text(edited["title"])
    expect(tab.page.locator("#feed article[data-id='29'] .edited")).to_be_visible()
    gone(tab, 28)
    assert tab.ids()[:3] == [30, 29, 27]
    assert tab.errors == []


def test_back_to_the_feed_leaves_out_what_was_deleted_meanwhile_and_the_article_read_stays(start_server, phone):
    server = start_server(seed="300")
    tab = phone(server).open()
    scroll_deep(tab, 200)
    _, item_id, top, _ = reading(tab)
    ids = tab.ids()
    above, below = ids[ids.index(item_id) - 1], ids[ids.index(item_id) + 2]
    opened = link_in_view(tab)
    tab.page.click(f"#feed article[data-id='{opened}'] footer a")
    tab.page.wait_for_url("**/item.html?id=*")
    delete(server, above)
    delete(server, below)
    tab.page.go_back()
    tab.page.wait_for_selector(f"#feed article[data-id='{item_id}']")
    expect(tab.page.locator(f"#feed article[data-id='{above}']")).to_have_count(0)
    expect(tab.page.locator(f"#feed article[data-id='{below}']")).to_have_count(0)
    tab.frames()
    assert abs(top_of(tab, item_id) - top) <= 3, "as Back without changes keeps it"
    # The deleted item's own page says so.
    tab.page.goto(f"{server.url}/item.html?id={above}")
    expect(tab.page.locator("#item p")).to_have_text("This item was deleted.")
    assert tab.errors == [] or all("410" in e for e in tab.errors), tab.errors

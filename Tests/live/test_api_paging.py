"""Paging as clients ask for it: the page around an item (`around=`), a range between two cursors
(`after=` with `before=`), the limit echoed on every form, a count on request, and the demo's
awkward cases on cue (`shortPages`, `cursorTtlSeconds`)."""
import re

import pytest

from pulldownkit.client import call, get, on_server
from test_api_support import assert_problem, ids

MERGE = {"Content-Type": "application/merge-patch+json"}


def links(server, reply):
    """The page's Link header as {rel: path and query}."""
    found = re.findall(r'<([^>]*)>;\s*rel="(\w+)"', ", ".join(reply.header_all("Link")))
    return {rel: on_server(server, url) for url, rel in found}


def page(server, path, status=200):
    reply = get(server, path)
    assert reply.status == status, reply
    return reply.json()


def knobs(server, **values):
    reply = call(server, "PATCH", "/api/demo", json=values, headers=MERGE)
    assert reply.status == 200, reply
    return reply.json()


def delete(server, *item_ids):
    for item in item_ids:
        assert call(server, "DELETE", f"/api/items/{item}").status == 204


def test_around_holds_the_item_mid_page_with_links_both_ways(server):
    reply = get(server, "/api/items?around=20&limit=5")
    body = reply.json()
    assert ids(body["items"]) == [22, 21, 20, 19, 18]
    assert body["anchor"] == {"id": 20, "found": True}
    assert (body["limit"], body["hasMore"], body["next"], body["prev"]) == (5, True, 18, 22)
    feed = body["feed"]
    assert links(server, reply) == {"prev": f"/api/items?limit=5&after=22&feed={feed}",
                                    "next": f"/api/items?limit=5&before=18&feed={feed}"}
    assert ids(page(server, links(server, reply)["prev"])["items"]) == [27, 26, 25, 24, 23]
    assert ids(page(server, links(server, reply)["next"])["items"]) == [17, 16, 15, 14, 13]


def test_around_near_either_end_is_still_a_full_page(server):
    top = get(server, "/api/items?around=49&limit=6")
    assert ids(top.json()["items"]) == [50, 49, 48, 47, 46, 45]
    assert top.json()["prev"] is None and set(links(server, top)) == {"next"}
    bottom = get(server, "/api/items?around=2&limit=6")
    assert ids(bottom.json()["items"]) == [6, 5, 4, 3, 2, 1]
    assert bottom.json()["hasMore"] is False and set(links(server, bottom)) == {"prev"}


def test_a_deleted_or_unknown_anchor_answers_where_it_would_be_not_found(server):
    delete(server, 20)
    body = page(server, "/api/items?around=20&limit=5")
    assert ids(body["items"]) == [22, 21, 19, 18]
    assert body["anchor"] == {"id": 20, "found": False}
    beyond = page(server, "/api/items?around=9000&limit=3")
    assert ids(beyond["items"]) == [50, 49, 48] and beyond["anchor"] == {"id": 9000, "found": False}


def test_around_with_another_cursor_or_a_bad_id_is_a_400(server):
    assert_problem(get(server, "/api/items?around=20&before=30"), 400, "around")
    assert_problem(get(server, "/api/items?around=0"), 400, "around")
    assert_problem(get(server, "/api/items?around=x"), 400, "around")


def test_a_range_is_exactly_the_items_strictly_between_across_pages(server):
    delete(server, 33, 34)
    reply = get(server, "/api/items?after=30&before=40&limit=4")
    body = reply.json()
    assert ids(body["items"]) == [39, 38, 37, 36]
    assert (body["rangeDone"], body["hasMore"], body["next"]) == (False, True, 36)
    assert links(server, reply) == {"next": f"/api/items?limit=4&after=30&before=36&feed={body['feed']}"}
    second = get(server, links(server, reply)["next"])
    assert ids(second.json()["items"]) == [35, 32]
    assert second.json()["rangeDone"] is False
    last = get(server, links(server, second)["next"])
    assert ids(last.json()["items"]) == [31]
    assert (last.json()["rangeDone"], last.json()["hasMore"], last.json()["next"]) == (True, True, None)
    assert links(server, last) == {}, "done: no link, though the feed goes on below the range"


def test_a_range_that_reaches_the_end_of_the_feed_says_the_feed_ends(server):
    body = page(server, "/api/items?after=0&before=4&limit=10")
    assert ids(body["items"]) == [3, 2, 1]
    assert (body["rangeDone"], body["hasMore"]) == (True, False)
    empty = page(server, "/api/items?after=10&before=11")
    assert (empty["items"], empty["rangeDone"], empty["hasMore"]) == ([], True, True)


def test_a_range_upside_down_is_empty_and_done(server):
    for query in ["after=20&before=20", "after=30&before=20"]:
        body = page(server, f"/api/items?{query}")
        assert (body["items"], body["rangeDone"], body["hasMore"], body["next"]) == ([], True, True, None)


@pytest.mark.parametrize("limit", [1, 2, 7, 100])
def test_every_form_echoes_any_limit_it_is_given(server, limit):
    feed = page(server, "/api/items?limit=1")["feed"]
    for query in ["", "&before=30", "&after=10", "&around=25", "&after=5&before=45", f"&before=30&feed={feed}",
                  f"&around=25&feed={feed}", f"&after=5&before=45&feed={feed}"]:
        body = page(server, f"/api/items?limit={limit}{query}")
        assert body["limit"] == limit, query
        assert len(body["items"]) <= limit, query


def test_a_count_is_given_only_when_asked_and_counts_live_items(server):
    delete(server, 7, 8)
    plain = get(server, "/api/items?limit=3")
    assert plain.header("X-Total-Count") is None
    for asked in [get(server, "/api/items?limit=3&count=exact"),
                  get(server, "/api/items?limit=3&before=20", headers={"Prefer": "return=minimal, count=exact"})]:
        assert asked.status == 200
        assert asked.header("X-Total-Count") == "48"
        assert asked.header("Preference-Applied") == "count=exact"
    assert_problem(get(server, "/api/items?count=estimated"), 400, "count")
    for reply in [plain, asked, get(server, "/api/items?around=20")]:
        assert "Prefer" in ", ".join(reply.header_all("Vary")), "the count's header makes another answer"
    other_origin = get(server, "/api/items?count=exact", headers={"Origin": "http://elsewhere.test"})
    assert "X-Total-Count" in other_origin.header("Access-Control-Expose-Headers").split(", ")


def test_a_counted_page_is_revalidated_by_its_count_too(server):
    first = get(server, "/api/items?limit=3&before=20&count=exact")
    etag = first.header("ETag")
    assert get(server, "/api/items?limit=3&before=20&count=exact", headers={"If-None-Match": etag}).status == 304
    delete(server, 40)
    again = get(server, "/api/items?limit=3&before=20&count=exact", headers={"If-None-Match": etag})
    assert again.status == 200 and again.header("X-Total-Count") == "49", "the same items, another count"


def test_short_pages_hold_fewer_items_than_asked_while_more_exist_and_the_walk_still_ends(server):
    assert knobs(server, shortPages=1)["shortPages"] == 1
    path, walked, pages = "/api/items?limit=10", [], 0
    while path:
        reply = get(server, path)
        body = reply.json()
        assert body["limit"] == 10
        if body["hasMore"]:
            assert len(body["items"]) < 10, "short, and more to come"
        walked += ids(body["items"])
        pages += 1
        path = links(server, reply).get("next")
    assert walked == list(range(50, 0, -1))
    assert pages > 5
    knobs(server, shortPages=None)
    assert len(page(server, "/api/items?limit=10")["items"]) == 10


def test_expired_cursors_are_a_410_that_says_what_to_do_and_bare_cursors_still_work(server):
    assert knobs(server, cursorTtlSeconds=60)["cursorTtlSeconds"] == 60
    reply = get(server, "/api/items?limit=5")
    following = links(server, reply)["next"]
    issued = int(re.search(r"&issued=(\d+)", following).group(1))
    assert following == f"/api/items?limit=5&before=46&feed={reply.json()['feed']}&issued={issued}"
    assert ids(page(server, following)["items"]) == [45, 44, 43, 42, 41], "a fresh cursor works"
    expired = get(server, f"/api/items?limit=5&before=46&issued={issued - 61}")
    problem = assert_problem(expired, 410)
    assert problem["type"] == "tag:pulldown,2026:cursor-expired"
    assert "newest page" in problem["detail"] and "around=" in problem["detail"]
    assert ids(page(server, "/api/items?limit=5&before=46")["items"]) == [45, 44, 43, 42, 41], "a bare cursor works"
    knobs(server, cursorTtlSeconds=0)
    assert "issued=" not in links(server, get(server, "/api/items?limit=5"))["next"]
    assert page(server, f"/api/items?limit=5&before=46&issued={issued - 61}")["limit"] == 5, "off: never expires"


def test_cursors_age_on_the_demo_clock(start_server):
    server = start_server("--clock", "manual:2026-01-01T00:00:00Z", seed="20")
    knobs(server, cursorTtlSeconds=60)
    following = links(server, get(server, "/api/items?limit=5"))["next"]
    assert re.search(r"&issued=1767225600$", following), "issued at the demo clock's time"
    assert call(server, "POST", "/api/demo/clock", json={"advance": "60s"}).status == 200
    assert ids(page(server, following)["items"]) == [15, 14, 13, 12, 11], "60 s old: still good"
    assert call(server, "POST", "/api/demo/clock", json={"advance": "1s"}).status == 200
    assert assert_problem(get(server, following), 410)["type"] == "tag:pulldown,2026:cursor-expired"


def test_the_paging_knobs_come_from_flags_and_the_environment_and_refuse_bad_values(start_server):
    server = start_server("--short-pages", "0.25", env={"PULLDOWN_CURSOR_TTL_SECONDS": "90"}, seed="5")
    current = page(server, "/api/demo")
    assert (current["shortPages"], current["cursorTtlSeconds"]) == (0.25, 90)
    refused = call(server, "PATCH", "/api/demo", json={"shortPages": 1.5, "cursorTtlSeconds": 0.5}, headers=MERGE)
    assert_problem(refused, 400, "cursorTtlSeconds", "shortPages")

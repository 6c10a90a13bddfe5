"""POST /api/demo/items: N demo items at once, pushed to open event streams like any insert."""
import pytest

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from test_api_support import assert_problem, ids


def add(server, count=None):
    return call(server, "POST", "/api/demo/items", json=None if count is None else {"count": count})


def test_adds_count_items_and_answers_them_newest_first_as_a_page_lists_them(server):
    reply = add(server, 3)
    assert reply.status == 201, reply
    assert reply.header("Cache-Control") == "no-store"
    items = reply.json()["items"]
    assert ids(items) == [53, 52, 51]
    assert all(item["title"] and item["body"] and item["author"] for item in items)
    assert get(server, "/api/items?limit=3").json()["items"] == items


def test_an_empty_body_adds_one(server):
    reply = add(server)
    assert reply.status == 201, reply
    assert ids(reply.json()["items"]) == [51]


def test_the_items_reach_open_streams(server):
    stream = Stream(server)
    try:
        added = set(ids(add(server, 4).json()["items"]))
        pushed = set()
        while pushed != added:
            event = stream.next_items()
            pushed |= set(ids(event.data["items"]))
            assert pushed <= added, pushed
    finally:
        stream.close()


def test_a_refresh_finds_them(server):
    session = call(server, "POST", "/api/refresh").session
    added = ids(add(server, 2).json()["items"])
    reply = call(server, "POST", "/api/refresh", headers={"X-Session-Id": session})
    assert reply.status == 200
    assert ids(reply.json()["items"]) == added


@pytest.mark.parametrize("body,names", [
    ({"count": 0}, ["count"]),
    ({"count": 101}, ["count"]),
    ({"count": "3"}, ["count"]),
    ({"count": 1.5}, ["count"]),
    ({"count": 2, "title": "x"}, ["title"]),
])
def test_a_bad_count_is_a_400_naming_it_and_adds_nothing(server, body, names):
    problem = assert_problem(call(server, "POST", "/api/demo/items", json=body), 400, *names)
    assert {param["name"] for param in problem["invalid_params"]} == set(names)
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == 50


def test_the_knobs_and_faults_do_not_touch_it(server):
    assert call(server, "PATCH", "/api/demo", json={"failRate": 1}).status == 200
    assert call(server, "POST", "/api/demo/faults", json={"on": "post", "count": 5}).status == 201
    assert add(server, 1).status == 201


def test_other_methods_are_405_with_allow(server):
    reply = get(server, "/api/demo/items")
    assert_problem(reply, 405)
    assert reply.header("Allow") == "POST"

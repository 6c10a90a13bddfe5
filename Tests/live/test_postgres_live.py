"""Live events across two instances on one PostgreSQL database: an item posted to one reaches
the event streams of the other (LISTEN/NOTIFY), and a reset through one starts the other over."""
import time

import pytest

from pulldownkit.client import call
from pulldownkit.events import Stream
from test_api_caching import feed_of
from test_postgres import URL, database  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not URL, reason="PULLDOWN_TEST_POSTGRES_URL is not set (make test sets it)")


def test_an_item_posted_on_one_instance_reaches_the_streams_of_the_other(start_server, database):  # noqa: F811
    a = start_server(db=database, seed="3")
    b = start_server(db=database, seed="3")
    stream = Stream(b)
    assert stream.status == 200
    stream.next_event()   # open
    reply = call(a, "POST", "/api/items", json={"title": "Posted on A", "body": ""})
    assert reply.status == 201
    event = stream.next_items()
    assert [item["id"] for item in event.data["items"]] == [reply.json()["id"]]
    assert event.data["items"][0]["title"] == "Posted on A"
    # And a reconnect to B with the last id it saw gets nothing twice.
    again = Stream(b, last_event_id=event.id)
    again.next_event()
    second = call(a, "POST", "/api/items", json={"title": "Second", "body": ""}).json()["id"]
    assert [item["id"] for item in again.next_items().data["items"]] == [second]


def test_a_reset_on_one_instance_starts_the_other_over_too(start_server, database):  # noqa: F811
    a = start_server(db=database, seed="3")
    b = start_server(db=database, seed="3")
    assert [item["id"] for item in call(b, "GET", "/api/items?limit=5&before=3").json()["items"]] == [2, 1]
    feed = feed_of(b)
    stream = Stream(b)
    try:
        stream.next_event()   # open
        assert call(a, "POST", "/api/items", json={"title": "Posted on A"}).status == 201
        assert stream.next_items().data["items"][0]["title"] == "Posted on A"
        reply = call(a, "POST", "/api/demo/reset")
        assert reply.status == 200 and reply.json() == {"itemCount": 3, "newestId": 7}, reply
        event = stream.next_event()
        assert event.fields.get("event") == "reset" and event.data == {"newestId": 7}, event
    finally:
        stream.close()
    assert [item["id"] for item in call(b, "GET", "/api/items?limit=5").json()["items"]] == [7, 6, 5]
    assert call(b, "GET", "/api/items?limit=5&before=3").json()["items"] == []
    assert call(b, "GET", f"/api/items?limit=5&before=3&feed={feed}").status == 410, "the old feed's pages are gone"


def test_an_edit_and_a_deletion_on_one_instance_reach_the_streams_of_the_other_within_a_second(start_server,
                                                                                              database):  # noqa: F811
    a = start_server(db=database, seed="3")
    b = start_server(db=database, seed="3")
    stream = Stream(b)
    try:
        stream.next_event()   # open
        started = time.monotonic()
        edited = call(a, "PATCH", "/api/items/2", json={"title": "Edited on A"}).json()
        assert call(a, "DELETE", "/api/items/1").status == 204
        updated = stream.next_named("updated", "deleted", "items", deadline_seconds=1)
        deleted = stream.next_named("updated", "deleted", "items", deadline_seconds=1)
        assert time.monotonic() - started < 1.5
        # The same item, its picture under the address B was reached at.
        assert (updated.name, updated.id) == ("updated", "4")
        assert updated.data == {**edited, "avatar": edited["avatar"].replace(a.url, b.url)}
        assert (deleted.name, deleted.id, deleted.data) == ("deleted", "5", {"id": 1})
    finally:
        stream.close()
    # B's stream picks up from there on reconnect, and an item posted on B after them comes next.
    again = Stream(b, last_event_id="5")
    try:
        posted = call(b, "POST", "/api/items", json={"title": "On B"}).json()["id"]
        assert posted == 6
        assert again.next_named("updated", "deleted", "items").id == "6"
    finally:
        again.close()

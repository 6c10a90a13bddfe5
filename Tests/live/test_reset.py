"""The way back to the demo: `--reset` alone empties the store and seeds the demo again, and
`POST /api/demo/reset` does the same on a running server, where open pages hear `event: reset`
and nothing kept in memory answers for the old feed."""
import json

from pulldownkit.client import call, get, post
from pulldownkit.events import Stream
from test_api_caching import feed_of
from test_data_file import titles, write
from test_data_watch import ndjson, pushed_within_promise

TOKEN = "reset-token-1234"


def demo_titles(start_server, count):
    """The titles a fresh store seeded with `count` demo items shows."""
    fresh = start_server(seed=str(count), db=":memory:")
    try:
        return titles(fresh)
    finally:
        fresh.stop()


def test_reset_alone_brings_the_demo_feed_back(start_server, tmp_path):
    expected = demo_titles(start_server, 20)
    db = tmp_path / "kept.sqlite"
    first = start_server(seed="20", db=db)
    assert post(first, "/api/items", json={"title": "Mine"}).status == 201
    session = post(first, "/api/refresh").session
    first.stop()
    again = start_server("--reset", seed="20", db=db)
    assert titles(again) == expected
    assert get(again, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 0
    assert "not applied" not in again.stderr()


def test_reset_alone_after_a_data_file_brings_the_demo_feed_back(start_server, tmp_path):
    expected = demo_titles(start_server, 12)
    db = tmp_path / "kept.sqlite"
    start_server("--data", str(write(tmp_path, "posts.json", '[{"title": "Mine"}]')), db=db).stop()
    assert titles(start_server("--reset", seed="12", db=db)) == expected


def test_the_reset_endpoint_starts_the_feed_over_and_every_answer_follows(start_server):
    server = start_server(seed="30")
    expected = titles(server)
    assert post(server, "/api/items", json={"title": "Mine"}).status == 201
    session = post(server, "/api/refresh").session
    feed = feed_of(server)
    deep = get(server, f"/api/items?limit=5&before=11&feed={feed}")
    assert deep.header("Cache-Control") == "no-cache"   # kept in memory from now on
    assert [item["id"] for item in deep.json()["items"]] == [10, 9, 8, 7, 6]
    assert "Mine" in get(server, "/").body.decode()
    stream = Stream(server)
    try:
        stream.next_event()  # retry: the stream is open
        reply = post(server, "/api/demo/reset")
        assert reply.status == 200, reply
        assert reply.header("Cache-Control") == "no-store"
        assert reply.json() == {"itemCount": 30, "newestId": 61}
        event = stream.next_named("reset")
        assert event.id == "61" and event.data == {"newestId": 61}
    finally:
        stream.close()
    assert titles(server) == expected
    assert get(server, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 0
    # A new feed: what was promised under the old one is gone, never answered from this one...
    renewed = feed_of(server)
    assert renewed != feed
    assert get(server, f"/api/items?limit=5&before=11&feed={feed}").status == 410
    # ...and its ids start past every old one: nothing of it is below 11.
    assert get(server, f"/api/items?limit=5&before=11&feed={renewed}").json()["items"] == []
    assert get(server, "/api/items?limit=5&before=11").json()["items"] == []
    assert "Mine" not in get(server, "/").body.decode()


def test_a_reset_takes_no_fields_and_needs_the_token_beyond_loopback(start_server):
    server = start_server(seed="5")
    refused = post(server, "/api/demo/reset", json={"seed": 3})
    assert refused.status == 400 and refused.json()["invalid_params"][0]["name"] == "seed"
    assert post(server, "/api/demo/reset", json={}).status == 200
    beyond = start_server("--host", "0.0.0.0", "--demo-token", TOKEN, "--no-qr", seed="5")
    assert call(beyond, "POST", "/api/demo/reset").status == 401
    assert call(beyond, "POST", "/api/demo/reset", headers={"Authorization": f"Bearer {TOKEN}"}).status == 200


def test_with_a_watched_data_file_the_reset_takes_the_file_as_it_is_and_goes_on_watching(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson([{"title": "one"}, {"title": "two"}]))
    server = start_server("--data", str(path), "--watch")
    assert post(server, "/api/items", json={"title": "posted"}).status == 201
    path.write_text(ndjson([{"title": "ONE"}, {"title": "two"}]))  # an edit: only a reset takes it
    reply = post(server, "/api/demo/reset")
    assert reply.status == 200 and reply.json()["itemCount"] == 2, reply
    assert titles(server) == ["ONE", "two"]
    items = pushed_within_promise(server, lambda: path.write_text(ndjson([{"title": "ONE"}, {"title": "two"},
                                                                          {"title": "three"}])))
    assert [item["title"] for item in items] == ["three"]
    assert "edited or removed" not in server.stderr()


def test_a_data_file_that_cannot_be_read_now_leaves_the_feed_as_it_is(start_server, tmp_path):
    path = write(tmp_path, "posts.json", json.dumps([{"title": "one"}]))
    server = start_server("--data", str(path))
    path.write_text('[{"title": ')
    reply = post(server, "/api/demo/reset")
    assert reply.status == 409, reply
    assert "posts.json" not in reply.body.decode(), "the file's place is the log's"
    assert "posts.json" in server.stderr() and "malformed JSON" in server.stderr()
    assert titles(server) == ["one"]

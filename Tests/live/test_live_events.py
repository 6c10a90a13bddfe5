"""GET /api/events: new items pushed as server-sent events to a real server."""
import signal

from pulldownkit.client import call
from pulldownkit.events import Stream


def post(server, title):
    reply = call(server, "POST", "/api/items", json={"title": title, "body": "live"})
    assert reply.status == 201, reply
    return reply.json()["id"]


def test_the_stream_is_event_stream_framed_and_starts_with_retry(start_server):
    server = start_server(seed="5")
    stream = Stream(server)
    assert stream.status == 200
    assert stream.headers["content-type"] == "text/event-stream"
    assert stream.headers["cache-control"] == "no-store"
    assert stream.headers["transfer-encoding"] == "chunked"
    first = stream.next_event()
    assert first.fields == {"retry": "1000"}
    item = post(server, "Pushed")
    event = stream.next_items()
    assert event.id == str(item)
    assert event.data["gap"] is False
    assert [i["id"] for i in event.data["items"]] == [item]
    assert event.data["items"][0]["title"] == "Pushed"
    # The same item JSON as the pages.
    page = call(server, "GET", f"/api/items?limit=1").json()
    assert event.data["items"][0] == page["items"][0]


def test_without_a_cursor_only_later_items_come(start_server):
    server = start_server(seed="5")
    stream = Stream(server)
    item = post(server, "After joining")
    assert [i["id"] for i in stream.next_items().data["items"]] == [item]


def test_a_reconnect_with_last_event_id_gets_exactly_what_it_missed(start_server):
    server = start_server(seed="3")
    seen = []
    stream = Stream(server)
    for title in ["one", "two", "three"]:
        post(server, title)
        event = stream.next_items()
        seen += [i["id"] for i in event.data["items"]]
        last = event.id
    stream.close()   # the connection drops
    missed = [post(server, "while away 1"), post(server, "while away 2")]
    again = Stream(server, query="?after=1", last_event_id=last)   # the header wins over ?after
    event = again.next_items()
    assert [i["id"] for i in event.data["items"]] == list(reversed(missed))
    assert event.data["gap"] is False
    seen += [i["id"] for i in event.data["items"]]
    latest = post(server, "after the reconnect")
    seen += [i["id"] for i in again.next_items().data["items"]]
    assert sorted(seen) == list(range(4, latest + 1)), "none twice, none lost"
    assert len(seen) == len(set(seen))


def test_more_than_ten_missed_items_are_a_gap(start_server):
    server = start_server(seed="2")
    for n in range(12):
        post(server, f"missed {n}")
    stream = Stream(server, query="?after=2")
    event = stream.next_items()
    assert event.data["gap"] is True
    assert [i["id"] for i in event.data["items"]] == list(range(14, 4, -1))
    assert event.id == "14"


def test_a_bad_cursor_is_a_400_naming_it(start_server):
    server = start_server(seed="2")
    for query, header, name in [("?after=x", None, "after"), ("", "12abc", "Last-Event-ID"), ("?after=1&after=2", None, "after")]:
        stream = Stream(server, query=query, last_event_id=header)
        assert stream.status == 400
        assert stream.headers["content-type"] == "application/problem+json"
        assert name in stream.body.decode()


def test_past_the_stream_limit_503_while_pages_and_health_are_still_served(start_server):
    server = start_server("--max-streams", "3", seed="5")
    streams = [Stream(server) for _ in range(3)]
    for stream in streams:
        assert stream.status == 200
        stream.next_event()   # open: its retry line arrived
    refused = Stream(server)
    assert refused.status == 503
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.headers["retry-after"] == "5"
    assert call(server, "GET", "/api/items").status == 200
    assert call(server, "GET", "/healthz").status == 200
    # A stream that leaves gives its slot back.
    streams[0].close()
    post(server, "wakes the streams, so the closed one is noticed")
    for stream in streams[1:]:
        stream.next_items()
    for _ in range(50):
        again = Stream(server)
        if again.status == 200:
            break
        again.close()
        # The slot comes back once the server has seen the socket gone; each try is a round
        # trip with the server, not a sleep.
        post(server, "another wake-up")
        for stream in streams[1:]:
            stream.next_items()
    assert again.status == 200


def test_heartbeat_comments_keep_an_idle_stream_alive(start_server):
    server = start_server("--heartbeat-seconds", "0.2", seed="1")
    stream = Stream(server)
    stream.next_event()   # retry
    event = stream.next_event()
    assert event.comments == ["ping"]
    assert event.fields == {}


def test_the_demo_generator_runs_while_a_stream_is_open(start_server):
    server = start_server(seed="3", new_items_every="0.3")
    stream = Stream(server)
    event = stream.next_items(deadline_seconds=15)
    assert all(i["id"] > 3 for i in event.data["items"])
    assert 1 <= len(event.data["items"]) <= 3


def test_sigterm_ends_every_stream_cleanly_and_exits_0(start_server):
    server = start_server(seed="3")
    streams = [Stream(server) for _ in range(5)]
    for stream in streams:
        stream.next_event()
    server.process.send_signal(signal.SIGTERM)
    for stream in streams:
        assert stream.next_event() is None, "the body ended with its last chunk"
        assert stream.ended
    # README: SIGTERM exits 0 within 2 s.
    assert server.process.wait(timeout=2) == 0


def test_an_open_file_limit_too_low_for_the_streams_is_said_at_start(tmp_path):
    """The server raises its open-file limit as far as the hard limit allows, and says so in one
    line when that is still less than --connection-limit and --max-streams need."""
    import subprocess
    from pulldownkit.server import BINARY, REPO
    process = subprocess.Popen(
        ["prlimit", "--nofile=512:512", BINARY, "--port", "0", "--db", ":memory:", "--seed", "0",
         "--new-items-every", "0", "--public", str(REPO / "Public"), "--quiet", "--max-streams", "10000"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        listening = process.stdout.readline()
        assert listening.startswith("Listening on http://"), listening
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=10)
    assert process.returncode == 0
    warnings = [line for line in stderr.splitlines() if "open-file limit" in line]
    assert len(warnings) == 1, stderr
    assert "open-file limit is 512" in warnings[0]
    assert "14064" in warnings[0], "4000 connections + 10000 streams + 64"


def test_the_access_log_counts_the_bytes_a_stream_sent(start_server):
    server = start_server(seed="5", quiet=False)
    stream = Stream(server)
    retry = stream.next_event()
    item = post(server, "Counted")
    event = stream.next_items()
    assert event.id == str(item)
    # The stream's line is written when it ends: the stop ends every stream.
    assert server.stop() == 0
    lines = [line for line in server.access_log() if line["path"] == "/api/events"]
    assert len(lines) == 1, lines
    # At least the retry field and the event the client read, framed as server-sent events.
    received = len("retry: 1000\n\n") + len(f"event: items\nid: {item}\ndata: ") + len(event.fields["data"].encode())
    assert retry.fields == {"retry": "1000"}
    assert int(lines[0]["bytes"]) >= received, (lines[0], received)


FEED_EVENTS = ("items", "updated", "deleted")


def test_edits_and_deletions_are_events_numbered_in_the_one_sequence_beside_inserts(start_server):
    server = start_server(seed="5")
    stream = Stream(server)
    try:
        edited = call(server, "PATCH", "/api/items/3", json={"title": "Edited live"}).json()
        assert call(server, "DELETE", "/api/items/2").status == 204
        item = post(server, "Pushed after them")
        updated, deleted, items = (stream.next_named(*FEED_EVENTS) for _ in range(3))
        assert (updated.name, updated.id, updated.data) == ("updated", "6", edited)
        assert (deleted.name, deleted.id, deleted.data) == ("deleted", "7", {"id": 2})
        assert (items.name, items.id, [i["id"] for i in items.data["items"]]) == ("items", "8", [item])
    finally:
        stream.close()


def test_a_reconnect_from_any_kind_of_event_gets_exactly_what_it_missed_in_order(start_server):
    server = start_server(seed="5")
    stream = Stream(server)
    call(server, "PATCH", "/api/items/4", json={"title": "Seen"})
    seen = stream.next_named(*FEED_EVENTS)
    stream.close()   # the connection drops after the update
    call(server, "DELETE", "/api/items/1")
    missed = post(server, "While away")
    call(server, "PATCH", "/api/items/4", json={"title": "Seen, then edited again"})
    again = Stream(server, last_event_id=seen.id)
    try:
        events = [again.next_named(*FEED_EVENTS) for _ in range(3)]
        assert [(event.name, event.id) for event in events] == [("deleted", "7"), ("items", "8"), ("updated", "9")]
        assert [i["id"] for i in events[1].data["items"]] == [missed]
        assert events[2].data["title"] == "Seen, then edited again" and events[2].data["version"] == 3
        # Nothing twice: the next thing is news.
        assert call(server, "DELETE", "/api/items/5").status == 204
        following = again.next_named(*FEED_EVENTS, "expired")
        assert (following.name, following.id, following.data) == ("deleted", "10", {"id": 5})
    finally:
        again.close()


def test_a_last_event_id_older_than_the_changes_kept_is_one_event_that_says_so(start_server):
    server = start_server("--changes-kept", "1", seed="5")
    for item_id in (1, 2, 3):
        assert call(server, "PATCH", f"/api/items/{item_id}", json={"title": f"Edit {item_id}"}).status == 200
    stream = Stream(server, last_event_id="5")
    try:
        expired = stream.next_named(*FEED_EVENTS, "expired")
        assert (expired.name, expired.id, expired.data) == ("expired", "8", {"changes": 8})
        item = post(server, "After it")
        assert [i["id"] for i in stream.next_items().data["items"]] == [item], "then what comes, from now on"
    finally:
        stream.close()

"""A network profile for each client: two sessions fetch the same things, one throttled by its
profile and one not; offline and back; event streams dropped and resumed; the API against the
OpenAPI document. Times are compared with the profile's own figures (±15 %), never with fixed
waits: what the test waits for is an answer or an event. A busy machine only ever adds time, so
every sample must reach the profile's lower bounds, and the least delayed of three its upper."""
import json
import math
import socket
import time
from datetime import datetime

import pytest

from pulldownkit.client import call, get, http_json, on_server
from pulldownkit.events import Stream
from test_api_openapi import Contract
from test_api_support import assert_problem, with_session

PICTURE_BYTES = 100_000
# The 3g preset's figures, as the document and the README give them.
LATENCY, JITTER, BANDWIDTH = 0.400, 0.100, 50_000
# Seconds offline: time enough for the checks made meanwhile, on a busy machine too.
OFFLINE = 4


def new_session(server):
    return http_json(server, "GET", "/api/session", expect=200)[1]["x-session-id"]


def set_profile(server, session, profile):
    status, _, body = http_json(server, "PUT", "/api/demo/profile", profile, session=session, expect=200)
    return body


def timed_get(server, path, session=None):
    """GET on a fresh connection, timed on the client: (status, headers, body, seconds to the first
    byte of the answer, seconds from there to its last byte)."""
    sock = socket.create_connection((server.host, server.port), timeout=30)
    try:
        extra = f"X-Session-Id: {session}\r\n" if session else ""
        started = time.monotonic()
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{extra}\r\n".encode())
        data = sock.recv(65536)
        first = time.monotonic()
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return int(lines[0].split(" ")[1]), headers, body, first - started, time.monotonic() - first
    finally:
        sock.close()


@pytest.fixture
def big_picture(start_server, tmp_path):
    """A server whose one item has a 100,000-byte picture; the picture's URL."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "big.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * (PICTURE_BYTES // 256) + b"\0" * (PICTURE_BYTES % 256 - 8))
    (folder / "posts.json").write_text(json.dumps([{"title": "Big", "image": {"url": "big.png", "width": 10, "height": 10}}]))
    server = start_server("--data", str(folder / "posts.json"))
    url = get(server, "/api/items").json()["items"][0]["image"]["url"]
    return server, on_server(server, url)


def test_a_session_on_3g_gets_its_latency_and_bandwidth_and_the_other_session_stays_fast(big_picture):
    server, picture = big_picture
    slow, fast = new_session(server), new_session(server)
    assert set_profile(server, slow, {"preset": "3g"})["profile"]["bytesPerSecond"] == BANDWIDTH
    for path in [picture, "/api/items"]:
        samples = [timed_get(server, path, slow) for _ in range(3)]
        for status, headers, body, ttfb, transfer in samples:
            assert status == 200 and len(body) == int(headers["content-length"]), path
            # The head after the latency and a draw of the jitter, never sooner.
            assert ttfb >= LATENCY * 0.85, (path, ttfb)
        status, headers, body, ttfb, transfer = min(samples, key=lambda sample: sample[3])
        assert ttfb <= (LATENCY + JITTER) * 1.15, (path, ttfb)
        if len(body) == PICTURE_BYTES:
            # 100,000 bytes at 50,000 a second: two seconds from the head to the last byte.
            assert 0.85 <= (len(body) / transfer) / BANDWIDTH <= 1.15, transfer
        others = [timed_get(server, path, fast) for _ in range(3)]
        assert all(status == 200 and same == body for status, _, same, _, _ in others), path
        ttfb, transfer = min(other[3] for other in others), min(other[4] for other in others)
        assert ttfb < LATENCY / 2 and transfer < len(body) / BANDWIDTH / 2, (path, ttfb, transfer)


def test_the_demo_knobs_still_apply_and_a_profile_adds_to_them(server):
    slow, fast = new_session(server), new_session(server)
    set_profile(server, slow, {"latencyMs": 300})
    http_json(server, "PATCH", "/api/demo", {"delayMs": 200}, expect=200)
    assert timed_get(server, "/api/items", slow)[3] >= 0.5 * 0.95
    fast_heads = [timed_get(server, "/api/items", fast)[3] for _ in range(2)]
    assert min(fast_heads) >= 0.2 * 0.95 and min(fast_heads) < 0.5, fast_heads


def test_offline_answers_503_with_retry_after_and_recovers_when_its_time_is_over(server):
    offline, other = new_session(server), new_session(server)
    watcher = Stream(server)   # a page elsewhere, which hears the profile change as `demo` events
    before = get(server, "/api/items", headers=with_session(offline))
    streamed = Stream(server, headers=with_session(offline))
    assert before.status == 200 and streamed.status == 200
    set_at = time.time()
    until = set_profile(server, offline, {"offlineFor": OFFLINE})["profile"]["offlineUntil"]
    until = datetime.fromisoformat(until.replace("Z", "+00:00")).timestamp()
    assert set_at + OFFLINE - 0.05 <= until <= time.time() + OFFLINE + 0.05
    while streamed.next_event() is not None:
        pass   # the open stream was closed when the client went offline
    for path in ["/api/items", "/api/refresh", "/api/events", "/", "/app.css"]:
        sent = time.time()
        reply = call(server, "POST" if path == "/api/refresh" else "GET", path, headers=with_session(offline))
        problem = assert_problem(reply, 503)
        assert problem["type"] == "tag:pulldown,2026:offline"
        # The whole seconds left when the server answered, between sending and receiving.
        left = {max(1, math.ceil(until - moment)) for moment in (sent, time.time())}
        assert int(reply.header("Retry-After")) in range(min(left), max(left) + 1), (path, reply.header("Retry-After"), left)
    assert get(server, "/api/items", headers=with_session(other)).status == 200
    assert get(server, "/api/demo/profile", headers=with_session(offline)).status == 200, "the demo API stays reachable"
    # The end of the offline time is told as an event; from then on the client is answered.
    client = offline[:32]
    while True:
        event = watcher.next_event()
        if event.name == "demo" and event.data.get("client") == client:
            if event.data["profile"] is None:
                break
            assert event.data["profile"]["offlineFor"] == OFFLINE
    assert time.time() >= until - 0.05
    assert get(server, "/api/items", headers=with_session(offline)).status == 200
    assert http_json(server, "GET", "/api/demo/profile", session=offline)[2]["profile"] is None


def test_a_stream_dropped_every_second_resumes_from_its_last_event_id(server):
    session = new_session(server)
    set_profile(server, session, {"dropStreamsEvery": 1})
    stream = Stream(server, headers=with_session(session))
    started = time.monotonic()
    first = http_json(server, "POST", "/api/items", {"title": "before the drop"}, expect=201)[2]["id"]
    assert stream.next_items().id == str(first)
    while stream.next_event() is not None:
        pass
    assert 0.85 <= time.monotonic() - started <= 1.15 + 1, "dropped after its second"
    missed = http_json(server, "POST", "/api/items", {"title": "while away"}, expect=201)[2]["id"]
    again = Stream(server, last_event_id=first, headers=with_session(session))
    event = again.next_items()
    assert event.id == str(missed) and [item["title"] for item in event.data["items"]] == ["while away"]
    again.close()


def test_every_change_of_a_profile_is_pushed_as_a_demo_event(server):
    watcher = Stream(server)
    session = new_session(server)
    set_profile(server, session, {"preset": "flaky-wifi"})
    http_json(server, "DELETE", f"/api/demo/clients/{session[:32]}/profile", expect=200)
    told = []
    while len(told) < 2:
        event = watcher.next_event()
        if event.name == "demo" and "client" in event.data:
            told.append(event.data)
    assert [t["client"] for t in told] == [session[:32]] * 2
    assert told[0]["profile"]["preset"] == "flaky-wifi" and told[1]["profile"] is None
    watcher.close()


def test_the_clients_and_profiles_match_the_document(server):
    contract = Contract(get(server, "/api/openapi.json").json())
    fresh = contract.check("/api/demo/profile", "GET", get(server, "/api/demo/profile"))
    session = fresh.header("X-Session-Id")
    assert fresh.header("Set-Cookie").startswith(f"pulldown_session={session};"), "a caller without one is issued one"
    assert fresh.json() == {"client": session[:32], "lastSeen": fresh.json()["lastSeen"], "profile": None}
    mine = contract.check("/api/demo/profile", "PUT",
                          call(server, "PUT", "/api/demo/profile", json={"preset": "3g", "stallMs": 500}, headers=with_session(session)))
    assert mine.json()["profile"]["preset"] == "custom" and mine.json()["profile"]["latencyMs"] == 400
    listed = contract.check("/api/demo/clients", "GET", get(server, "/api/demo/clients")).json()
    assert listed["maxProfiles"] == 1000
    assert [c["profile"]["stallMs"] for c in listed["clients"] if c["client"] == session[:32]] == [500]
    other = new_session(server)
    get(server, "/api/items", headers=with_session(other))   # seen now
    path = "/api/demo/clients/{client}/profile"
    for name in [other[:32], other]:   # by its id or by its token
        contract.check(path, "PUT", call(server, "PUT", f"/api/demo/clients/{name}/profile", json={"preset": "offline-10s"}))
    contract.check(path, "GET", get(server, f"/api/demo/clients/{other[:32]}/profile"))
    cleared = contract.check(path, "DELETE", call(server, "DELETE", f"/api/demo/clients/{other[:32]}/profile"))
    assert cleared.json()["profile"] is None
    unknown = contract.check(path, "PUT", call(server, "PUT", f"/api/demo/clients/{'a' * 32}/profile", json={"preset": "3g"}))
    assert unknown.status == 404
    bad = contract.check(path, "GET", get(server, "/api/demo/clients/phone/profile"))
    assert_problem(bad, 400, "client")
    refused = contract.check("/api/demo/profile", "PUT",
                             call(server, "PUT", "/api/demo/profile", json={"preset": "5g", "latencyMs": -1, "x": 1}, headers=with_session(session)))
    assert_problem(refused, 400, "preset", "latencyMs", "x")
    assert contract.check("/api/demo/profile", "DELETE", call(server, "DELETE", "/api/demo/profile",
                                                             headers=with_session(session))).json()["profile"] is None
    # An offline client's 503 is the document's too.
    set_profile(server, session, {"offlineFor": 60})
    contract.check("/api/items", "GET", get(server, "/api/items", headers=with_session(session)))

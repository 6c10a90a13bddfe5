"""The client doctor over real HTTP: for each rule a scripted client that makes exactly that
mistake, and only it; a client that does everything right, which gets nothing; --doctor off,
which records nothing; the bounds; the log line; the stream of findings; the token beyond
loopback. Each client is told apart by its User-Agent (none sends a session). The servers run on
the manual demo clock, which the doctor reads: time moves only when a test moves it, so "within a
second" and "after Retry-After" are exact, however slow the box."""
import re

import pytest

from pulldownkit import doctor
from pulldownkit.client import call, get
from pulldownkit.events import Stream
from pulldownkit.waiting import wait_until
from test_api_support import assert_problem

LINK = re.compile(r"before=(\d+)")


class Client:
    """A scripted client of `server`, known to the doctor by its User-Agent `name`."""

    def __init__(self, server, name):
        self.server, self.name = server, name

    def get(self, path, headers=None):
        return get(self.server, path, headers={"User-Agent": self.name, **(headers or {})})

    def post(self, path, json=None, headers=None):
        return call(self.server, "POST", path, json=json, headers={"User-Agent": self.name, **(headers or {})})

    def page(self, query="", headers=None):
        """A page of /api/items?QUERY: (its JSON, the before= of its next page or None, its ETag)."""
        reply = self.get(f"/api/items{query}", headers)
        assert reply.status in (200, 304), reply
        link = reply.header("Link")
        return (reply.json() if reply.status == 200 else None), (int(LINK.search(link)[1]) if link else None), reply.header("ETag")

    def stream(self, query="", last_event_id=None):
        """Opens GET /api/events, checks its head and closes it."""
        stream = Stream(self.server, query, last_event_id=last_event_id, headers={"User-Agent": self.name})
        assert stream.status == 200
        stream.close()

    def findings(self):
        """{rule: count} the doctor has for this client ({} when it has none, or no such client)."""
        kept = [client for client in doctor.clients(self.server) if client["userAgent"] == self.name]
        return doctor.findings(kept[0]) if kept else {}


def advance(server, duration):
    """Moves the server's manual clock on by `duration` ("2s")."""
    assert call(server, "POST", "/api/demo/clock", json={"advance": duration}).status == 200


def post_items(server, count):
    for n in range(count):
        assert call(server, "POST", "/api/items", json={"title": f"new {n}"}, headers={"User-Agent": "poster"}).status == 201


@pytest.fixture
def feed(start_server):
    """A server with 35 seeded items, on a clock that stands still until moved."""
    return start_server("--clock", "manual", seed="35")


def test_retry_too_soon(feed):
    c = Client(feed, "retry-too-soon")
    refused = c.get("/api/items/5?_fail=503")
    assert refused.status == 503 and refused.header("Retry-After") == "1"
    assert c.get("/api/items/5").status == 200
    assert c.findings() == {"retry-too-soon": 1}


def test_past_the_end(start_server):
    c = Client(start_server(seed="15"), "past-the-end")
    _, older, _ = c.page()
    page, older, _ = c.page(f"?before={older}")
    assert page["hasMore"] is False and older is None
    page, _, _ = c.page(f"?before={page['items'][-1]['id']}")   # as if hasMore were not there
    assert page["items"] == []
    assert c.findings() == {"past-the-end": 1}


@pytest.mark.parametrize("short", ["knob", "deletions"])
def test_short_page_stop(start_server, short):
    server = start_server("--clock", "manual", *(["--short-pages", "1"] if short == "knob" else []), seed="35")
    if short == "deletions":
        for item in (33, 31, 30):   # their places stay, left out of the page
            assert call(server, "DELETE", f"/api/items/{item}", headers={"User-Agent": "editor"}).status == 204
    c = Client(server, "short-page-stop")
    page, older, _ = c.page()
    assert page["hasMore"] is True and older and len(page["items"]) < page["limit"], "short, with more to come"
    advance(server, "30s")
    c.post("/api/refresh", {"after": 35, "changes": page["changes"]})   # as if the short page were the end
    assert c.findings() == {"short-page-stop": 1}


def test_a_client_that_goes_on_from_short_pages_gets_no_finding(start_server):
    server = start_server("--clock", "manual", "--short-pages", "1", seed="35")
    c = Client(server, "goes-on")
    page, older, _ = c.page()
    short = 0
    while older:
        short += len(page["items"]) < page["limit"]
        page, older, _ = c.page(f"?before={older}")
    assert short == 6 and page["hasMore"] is False
    advance(server, "30s")
    c.post("/api/refresh", {"after": 35, "changes": page["changes"]})
    assert c.findings() == {}


def test_ignored_gap(feed):
    c = Client(feed, "ignored-gap")
    c.page()
    post_items(feed, 15)
    answer = c.post("/api/refresh", {"after": 35}).json()
    assert answer["gap"] is True
    c.post("/api/refresh", {"after": answer["items"][0]["id"]})   # as if nothing were missing
    assert c.findings() == {"ignored-gap": 1}


def test_stale_after_change(feed):
    c = Client(feed, "stale-after-change")
    page, _, _ = c.page()
    assert call(feed, "PATCH", "/api/items/30", json={"title": "Edited"}, headers={"User-Agent": "editor"}).status == 200
    assert call(feed, "DELETE", "/api/items/31", headers={"User-Agent": "editor"}).status == 204
    stale = c.post("/api/refresh", {"after": 35}).json()   # no "changes": the edit and the deletion go unsaid
    assert stale["changed"] == [] and stale["changes"] > page["changes"]
    told = c.post("/api/refresh", {"after": 35, "changes": page["changes"]}).json()
    assert [change["type"] for change in told["changed"]] == ["updated", "deleted"]
    c.post("/api/refresh", {"after": 35, "changes": told["changes"]})
    assert c.findings() == {"stale-after-change": 1}


def test_refetch_all_pages(feed):
    c = Client(feed, "refetch-all-pages")
    _, second, _ = c.page()
    _, third, _ = c.page(f"?before={second}")
    c.page(f"?before={third}")
    c.post("/api/refresh", {"after": 35})
    c.page(f"?before={second}")     # every page held, again
    c.page(f"?before={third}")
    assert c.findings() == {"refetch-all-pages": 2}


def test_first_page_on_load_more(feed):
    c = Client(feed, "first-page-on-load-more")
    _, second, tag = c.page()
    c.page(f"?before={second}")
    c.page(headers={"If-None-Match": tag})   # the newest page with it, as SWR asks
    assert c.findings() == {"first-page-on-load-more": 1}


def test_duplicate_request(feed):
    c = Client(feed, "duplicate-request")
    _, second, _ = c.page()
    c.page(f"?before={second}")
    c.page(f"?before={second}")
    assert c.findings() == {"duplicate-request": 1}


def test_reconnect_without_last_event_id(feed):
    c = Client(feed, "reconnect")
    c.stream()
    c.stream()
    assert c.findings() == {"reconnect-without-last-event-id": 1}


def test_stream_without_cursor(feed):
    c = Client(feed, "stream-without-cursor")
    c.page()
    c.stream()
    assert c.findings() == {"stream-without-cursor": 1}


def test_poll_without_validator(feed):
    c = Client(feed, "poll-without-validator")
    c.page()
    c.page("?limit=12")   # the newest page again, without its tag (another size: no duplicate)
    assert c.findings() == {"poll-without-validator": 1}


def test_a_client_that_does_everything_right_gets_no_finding(feed):
    c = Client(feed, "good")
    # Paging to the end, and no further.
    page, older, tag = c.page()
    while older:
        page, older, _ = c.page(f"?before={older}")
    assert page["hasMore"] is False
    # A refresh from the newest item held, asking for the edits and deletions since the pages.
    post_items(feed, 2)
    refreshed = c.post("/api/refresh", {"after": 35, "changes": page["changes"]}).json()
    assert len(refreshed["items"]) == 2 and not refreshed["gap"]
    # Polling with the tag. The pauses are the client's own pacing, which is what is under test:
    # a poll within a second of the last answer is a duplicate.
    advance(feed, "2s")
    _, _, tag = c.page(headers={"If-None-Match": tag})   # changed since: the new page and its tag
    advance(feed, "2s")
    assert c.get("/api/items", headers={"If-None-Match": tag}).status == 304
    # The stream from the newest item held, and a reconnect from its last event.
    c.stream("?after=37")
    c.stream("?after=37", last_event_id=37)
    # A 503 waited out, as its Retry-After says.
    refused = c.get("/api/items/5?_fail=503")
    advance(feed, refused.header("Retry-After") + "s")   # exactly: the retry may come at that instant
    assert c.get("/api/items/5").status == 200
    assert c.findings() == {}
    assert any(client["userAgent"] == "good" and client["requests"] == 11 for client in doctor.clients(feed))


def test_with_the_doctor_off_nothing_is_recorded_or_served(start_server):
    server = start_server("--doctor", "off", "--doctor-log", seed="20")
    c = Client(server, "bad")
    c.page()
    c.page()
    assert_problem(get(server, "/api/doctor"), 404)
    assert_problem(get(server, "/api/doctor/events"), 404)
    assert "doctor" not in server.stderr()


def test_the_variable_turns_it_off_too(start_server):
    server = start_server(seed="5", env={"PULLDOWN_DOCTOR": "off"})
    assert doctor.clients(server) is None


def test_the_bounds_hold_under_a_thousand_clients(feed):
    for n in range(1000):
        assert get(feed, "/api/items/1", headers={"User-Agent": f"flood {n}"}).status == 200
    kept = doctor.clients(feed)
    assert get(feed, "/api/doctor").json()["skipped"] == 0, "fewer than 2,000 a second: every one examined"
    assert len(kept) == 64
    assert [client["userAgent"] for client in kept] == [f"flood {n}" for n in range(999, 935, -1)]
    for _ in range(250):
        get(feed, "/api/items/2", headers={"User-Agent": "flood 999"})
    one = get(feed, f"/api/doctor/{kept[0]['id']}").json()
    assert one["requests"] == 251 and len(one["timeline"]) == 200
    assert one["timeline"][-1]["url"] == "/api/items/2"


def test_a_client_s_timeline_and_its_findings(feed):
    c = Client(feed, "timeline")
    _, second, _ = c.page()
    c.page(f"?before={second}")
    c.page(f"?before={second}")
    [client] = [client for client in doctor.clients(feed) if client["userAgent"] == "timeline"]
    assert client["address"] == "127.0.0.1" and client["session"] is None
    one = get(feed, f"/api/doctor/{client['id']}").json()
    assert [(r["method"], r["url"], r["status"], r["cursor"], r["rule"]) for r in one["timeline"]] == [
        ("GET", "/api/items", 200, "newest, limit=10", None),
        ("GET", f"/api/items?before={second}", 200, f"before={second}, limit=10", None),
        ("GET", f"/api/items?before={second}", 200, f"before={second}, limit=10", "duplicate-request"),
    ]
    [finding] = one["findings"]
    assert finding["example"]["url"] == finding["because"]["url"] == f"/api/items?before={second}"
    assert finding["advice"] and finding["docs"] == "docs/doctor.md#duplicate-request"
    assert all(r["durationMs"] >= 0 for r in one["timeline"])


def test_requests_with_a_session_are_one_client_whatever_else_they_send(feed):
    session = call(feed, "POST", "/api/refresh", json={}).header("X-Session-Id")
    get(feed, "/api/items", headers={"X-Session-Id": session, "User-Agent": "one"})
    get(feed, "/api/items?limit=3", headers={"Cookie": f"pulldown_session={session}", "User-Agent": "two"})
    kept = [client for client in doctor.clients(feed) if client["session"] == session[:8]]
    assert len(kept) == 1 and kept[0]["requests"] == 2 and kept[0]["userAgent"] == "two"


def test_an_unknown_client_is_a_404_problem(feed):
    assert_problem(get(feed, "/api/doctor/000000000000"), 404)


def test_the_doctor_does_not_watch_itself_nor_the_demo_api(feed):
    get(feed, "/api/doctor")
    get(feed, "/api/doctor")
    get(feed, "/api/demo")
    call(feed, "PATCH", "/api/demo", json={"delayMs": 0})
    assert doctor.clients(feed) == []


def test_each_new_finding_is_one_line_on_stderr_with_doctor_log(start_server):
    server = start_server("--doctor-log", "--clock", "manual", seed="35")
    c = Client(server, "logged")
    _, second, _ = c.page()
    for _ in range(3):
        c.page(f"?before={second}")
    assert wait_until(lambda: "doctor:" in server.stderr())
    lines = [line for line in server.stderr().splitlines() if "doctor:" in line]
    assert len(lines) == 1, lines
    assert re.fullmatch(r"pulldown: doctor: client [0-9a-f]{12} \(127\.0\.0\.1 logged\): duplicate-request: "
                        rf"GET /api/items\?before={second} 200: Asked for the same thing twice at once", lines[0])


def test_findings_are_pushed_to_whoever_watches(feed):
    watcher = Stream(feed, path="/api/doctor/events")
    assert watcher.status == 200 and watcher.headers["content-type"] == "text/event-stream"
    Client(feed, "watched").page()
    Client(feed, "watched").page("?limit=12")
    event = watcher.next_named("doctor")
    watcher.close()
    assert event.id is None
    assert event.data["client"]["userAgent"] == "watched"
    assert [f["rule"] for f in event.data["client"]["findings"]] == ["poll-without-validator"]


def test_beyond_loopback_the_doctor_needs_the_demo_token(start_server):
    for extra in ([], ["--demo-api", "off"]):
        server = start_server("--host", "0.0.0.0", "--no-qr", "--demo-token", "doctor-token-1", *extra, seed="5")
        server.host = "127.0.0.1"   # listening on every interface, asked over loopback only
        for path in ["/api/doctor", "/api/doctor/events", "/api/doctor/000000000000"]:
            assert_problem(get(server, path), 401)
        assert doctor.clients(server, headers={"Authorization": "Bearer doctor-token-1"}) == []

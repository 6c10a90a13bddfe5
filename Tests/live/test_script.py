"""A demo that runs itself: a script of steps played on the demo clock. Under --clock manual the
time stands still until POST /api/demo/clock moves it, so every step here happens exactly when
the test says, with no waiting on the wall clock."""
import json
import pathlib
import shutil
import subprocess

import pytest

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from pulldownkit.server import BINARY, REPO
from test_api_support import assert_problem

SCRIPTS = pathlib.Path(REPO) / "docs" / "scripts"


def advance(server, duration):
    reply = call(server, "POST", "/api/demo/clock", json={"advance": duration})
    assert reply.status == 200, reply
    return reply.json()["now"]


def script_state(server):
    reply = get(server, "/api/demo/script")
    assert reply.status == 200, reply
    assert reply.header("Cache-Control") == "no-store"
    return reply.json()


def test_a_bad_script_file_stops_the_start_with_one_line_naming_the_step_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"steps": [{"at": "1s", "do": "label", "text": "ok"},
                                         {"name": "burst", "at": "2s", "do": "addItems", "count": 0}]}))
    result = subprocess.run([BINARY, "--db", ":memory:", "--port", "0", "--script", str(bad)],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        f'pulldown: --script {bad}: step 1 ("burst"): count must be an integer from 1 to 100']


def test_a_bad_script_is_a_400_naming_the_step_and_nothing_is_loaded(start_server):
    server = start_server("--clock", "manual", "--script", str(SCRIPTS / "rate-limited-api.json"))
    before = script_state(server)
    reply = call(server, "PUT", "/api/demo/script",
                 json={"steps": [{"at": "1s", "do": "dropStreams"}, {"after": {"refreshes": 0}, "do": "dropStreams"}]})
    assert_problem(reply, 400)
    assert reply.json()["invalid_params"] == [{"name": "steps[1].after.refreshes",
                                               "reason": "must be an integer from 1 to 1000000"}]
    assert "step 1: after.refreshes" in reply.json()["detail"]
    assert script_state(server)["steps"] == before["steps"]


def test_play_pause_and_restart_answer_409_before_a_script_is_loaded(start_server):
    server = start_server()
    for action in ["play", "pause", "restart"]:
        assert_problem(call(server, "POST", f"/api/demo/script/{action}"), 409)
    assert script_state(server)["state"] == "idle"


def test_the_wall_clock_cannot_be_moved(start_server):
    server = start_server()
    assert_problem(call(server, "POST", "/api/demo/clock", json={"advance": "5s"}), 409)
    assert_problem(call(server, "POST", "/api/demo/clock", json={"advance": "soon"}), 400)


def test_steps_run_when_the_manual_clock_reaches_them_and_each_change_is_pushed(start_server):
    server = start_server("--clock", "manual:2026-03-01T09:00:00Z", seed="5")
    stream = Stream(server)
    reply = call(server, "PUT", "/api/demo/script", json={"steps": [
        {"at": "0s", "do": "label", "text": "Act 1"},
        {"at": "2s", "do": "addItems", "count": 3, "name": "three"},
        {"after": {"step": "three"}, "do": "label", "text": "Act 2"}]})
    assert reply.status == 200, reply
    assert reply.json()["label"] == "Act 1"
    assert reply.json()["next"] == {"step": 1, "at": 2, "dueAt": "2026-03-01T09:00:02.000Z"}
    pushed = stream.next_named("script").data
    assert (pushed["label"], pushed["state"]) == ("Act 1", "playing")
    assert call(server, "POST", "/api/demo/script/pause").json()["state"] == "paused"
    assert stream.next_named("script").data["state"] == "paused"
    advance(server, "10s")
    assert script_state(server)["steps"][1]["runs"] == 0, "paused time does not count"
    assert call(server, "POST", "/api/demo/script/play").json()["state"] == "playing"
    assert stream.next_named("script").data["state"] == "playing"
    advance(server, "1999ms")
    assert script_state(server)["steps"][1]["runs"] == 0
    advance(server, "1ms")
    items = stream.next_named("items").data
    assert [item["createdAt"] for item in items["items"]] == ["2026-03-01T09:00:12Z"] * 3
    pushed = stream.next_named("script").data
    assert (pushed["label"], pushed["state"]) == ("Act 2", "finished")
    assert call(server, "POST", "/api/demo/script/restart").json()["label"] == "Act 1"
    stream.close()


def first_event(stream):
    """The stream's first event with a name (past `retry:` and comments)."""
    event = stream.next_event()
    while "event" not in event.fields:
        event = stream.next_event()
    return event


def test_a_stream_opened_while_a_script_is_loaded_starts_with_its_state_and_none_without(start_server):
    server = start_server("--clock", "manual", seed="5")
    bare = Stream(server)
    call(server, "POST", "/api/items", json={"title": "first", "body": "b"})
    assert first_event(bare).name == "items", "no script loaded: no script event first"
    bare.close()
    assert call(server, "PUT", "/api/demo/script", json={"steps": [
        {"at": "0s", "do": "label", "text": "Act 1"}, {"at": "5s", "do": "label", "text": "Act 2"}]}).status == 200
    late = Stream(server)
    first = first_event(late)
    assert (first.name, first.data["label"], first.data["state"]) == ("script", "Act 1", "playing")
    late.close()


def test_a_refresh_cue_fails_the_refreshes_after_it_with_the_scripts_retry_after(start_server):
    server = start_server("--clock", "manual", "--script", str(SCRIPTS / "flaky-train-wifi.json"))
    assert [call(server, "POST", "/api/refresh").status for _ in range(2)] == [200, 200]
    failed = [call(server, "POST", "/api/refresh") for _ in range(2)]
    assert [(reply.status, reply.header("Retry-After")) for reply in failed] == [(503, "3"), (503, "3")]
    assert call(server, "POST", "/api/refresh").status == 200
    advance(server, "10s")
    offline = get(server, "/api/items?limit=1")
    assert_problem(offline, 503)
    assert offline.json()["type"] == "tag:pulldown,2026:offline"
    assert offline.header("Retry-After") == "8"
    assert get(server, "/api/demo").status == 200, "the steering is never offline"
    advance(server, "8s")
    assert get(server, "/api/items?limit=1").status == 500
    assert get(server, "/api/items?limit=1").status == 200


def test_the_rate_limit_holds_exactly_to_the_second_and_recovers_when_its_window_ends(start_server):
    server = start_server("--clock", "manual", "--script", str(SCRIPTS / "rate-limited-api.json"))
    assert get(server, "/api/items?limit=1").header("RateLimit") is None
    advance(server, "5s")
    allowed = [get(server, "/api/items?limit=1") for _ in range(5)]
    assert [reply.status for reply in allowed] == [200] * 5
    assert [reply.header("RateLimit") for reply in allowed] == [f'"demo";r={left};t=10' for left in [4, 3, 2, 1, 0]]
    assert {reply.header("RateLimit-Policy") for reply in allowed} == {'"demo";q=5;w=10'}

    def refused(retry_after):
        reply = get(server, "/api/items?limit=1")
        assert_problem(reply, 429)
        assert reply.header("Retry-After") == str(retry_after)
        assert reply.header("RateLimit") == f'"demo";r=0;t={retry_after}'
        assert reply.header("RateLimit-Policy") == '"demo";q=5;w=10'

    refused(10)
    advance(server, "9s")
    refused(1)
    advance(server, "500ms")
    refused(1)
    advance(server, "500ms")
    recovered = get(server, "/api/items?limit=1")
    assert recovered.status == 200
    assert recovered.header("RateLimit") == '"demo";r=4;t=10'
    advance(server, "20s")
    assert get(server, "/api/items?limit=1").header("RateLimit") is None, "lifted at 35s"


def test_the_rate_limit_can_be_set_and_lifted_by_hand(start_server):
    server = start_server("--clock", "manual")
    reply = call(server, "PUT", "/api/demo/rate-limit", json={"limit": 1, "window": "2s"})
    assert reply.json() == {"limit": 1, "window": 2, "since": "2026-01-01T00:00:00.000Z"}
    assert get(server, "/api/items?limit=1").status == 200
    assert get(server, "/api/items?limit=1").status == 429
    assert call(server, "DELETE", "/api/demo/rate-limit").json() == {"limit": None, "window": None, "since": None}
    assert get(server, "/api/items?limit=1").status == 200
    assert_problem(call(server, "PUT", "/api/demo/rate-limit", json={"limit": 1, "window": "1.5s"}), 400)


@pytest.mark.parametrize("name", ["breaking-news", "flaky-train-wifi", "rate-limited-api"])
def test_each_bundled_script_loads_and_plays_to_its_end(start_server, name):
    server = start_server("--clock", "manual", "--script", str(SCRIPTS / f"{name}.json"), seed="10")
    assert script_state(server)["state"] == "playing"
    for _ in range(3):
        call(server, "POST", "/api/refresh")
    for _ in range(12):
        advance(server, "5s")
    state = script_state(server)
    assert state["state"] == "finished", state
    assert all(step["runs"] == step["times"] for step in state["steps"])


def transcript(server, session):
    """Plays the flaky Wi-Fi script with one fixed list of requests; every answer but its Date,
    and every event the stream carried, in order."""
    lines = []

    def exchange(method, path, body=None):
        headers = {"X-Session-Id": session}
        reply = call(server, method, path, json=body, headers=headers)
        lines.append(f"{method} {path} -> {reply.status}")
        lines.extend(f"{name}: {value}" for name, value in reply.headers if name.lower() != "date")
        lines.append(reply.body.decode())

    stream = Stream(server)
    exchange("PUT", "/api/demo/script", json.loads((SCRIPTS / "flaky-train-wifi.json").read_text()))
    for _ in range(5):
        exchange("POST", "/api/refresh")
    exchange("POST", "/api/demo/clock", {"advance": "5s"})
    exchange("POST", "/api/refresh")
    exchange("POST", "/api/demo/clock", {"advance": "5s"})
    exchange("GET", "/api/items?limit=3")
    exchange("POST", "/api/demo/clock", {"advance": "8s"})
    exchange("GET", "/api/items?limit=3")
    exchange("GET", "/api/items?limit=3")
    exchange("POST", "/api/demo/clock", {"advance": "2s"})
    exchange("GET", "/api/demo/script")
    while True:
        event = stream.next_event()
        lines.append(repr((event.fields, event.comments)))
        if event.fields.get("event") == "script" and event.data["state"] == "finished":
            break
    stream.close()
    return "\n".join(lines)


def test_the_same_script_seed_and_requests_give_the_same_answers_byte_for_byte(start_server, tmp_path):
    # One store, seeded under the manual clock with one session in it, copied for each run: the
    # feed's identity and session keys are random by design, and the same in both copies.
    prepared = tmp_path / "prepared.sqlite"
    first = start_server("--clock", "manual", db=prepared, seed="20")
    session = call(first, "POST", "/api/refresh").session
    first.stop()
    runs = []
    for name in ["a", "b"]:
        copy = tmp_path / f"{name}.sqlite"
        shutil.copy(prepared, copy)
        # One origin for both, whatever port each listens on: links are written under it.
        server = start_server("--clock", "manual", "--heartbeat-seconds", "3600", "--public-url", "http://pulldown.test",
                              db=copy, seed="20")
        runs.append(transcript(server, session))
        server.stop()
    assert "-> 503" in runs[0] and "-> 500" in runs[0] and '"state":"finished"' in runs[0]
    assert runs[0] == runs[1]

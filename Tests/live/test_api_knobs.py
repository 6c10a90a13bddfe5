"""Demo knobs: delays that hold no thread, injected failures that change nothing, fail rates."""
import pytest

from pulldownkit.client import get, post
from pulldownkit.raw import read_until_close, status_of
from pulldownkit.store import sqlite_rows
from pulldownkit.waiting import STUCK_SECONDS
from test_api_support import assert_problem, with_session
from test_hostile_support import answered, send_get

# Bounds on undelayed answers only tell "not delayed" from "delayed": they sit at the delay a
# wrong answer would carry, far above any loopback answer, so busy cores cannot reach them.
DELAY = 1.0


def test_delay_param_delays_the_answer_about_that_long(server):
    reply = get(server, f"/api/items?_delay={int(DELAY * 1000)}")
    assert reply.status == 200
    assert DELAY <= reply.seconds < 10 * DELAY  # milliseconds, not centiseconds or seconds
    assert get(server, "/api/items").seconds < DELAY, "the next request carries no delay"


@pytest.mark.parametrize("value", ["20000", "10001", "-1", "abc", "1.5", "", "%2B300"])
def test_a_bad_delay_is_a_400_naming_it(server, value):
    reply = get(server, f"/api/items?_delay={value}")
    assert_problem(reply, 400, "_delay")
    assert reply.seconds < 5, "refused before any wait (20000 and 10001 would wait 10 s or more)"


def test_a_delay_of_10000_is_accepted_and_waits_until_a_stop_answers_it(server):
    # A refused value would answer 400 at once; an accepted one is still waiting at the stop.
    with send_get(server, "/api/items?_delay=10000") as waiting:
        server.wait_until_read(waiting)
        assert server.stop() == 0  # a suspended connection must neither crash nor hang the stop
        assert status_of(read_until_close(waiting, STUCK_SECONDS)) == 503


@pytest.mark.parametrize("status,retry_after", [(429, True), (500, False), (503, True)])
def test_fail_param_answers_that_status_as_a_problem(server, status, retry_after):
    for path in ["/api/items", "/api/session", "/api/items/3", "/api/openapi.json"]:
        reply = get(server, f"{path}?_fail={status}")
        assert_problem(reply, status)
        assert (reply.header("Retry-After") is not None) == retry_after, (path, reply)
        if retry_after:
            assert int(reply.header("Retry-After")) >= 0


@pytest.mark.parametrize("value", ["418", "200", "404", "abc", "", "%2B503"])
def test_a_bad_fail_is_a_400_naming_it(server, value):
    assert_problem(get(server, f"/api/items?_fail={value}"), 400, "_fail")


def test_an_injected_failure_changes_nothing(server):
    assert_problem(post(server, "/api/items?_fail=500", json={"title": "never stored"}), 500)
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == 50
    reply = post(server, "/api/refresh?_fail=429")
    assert_problem(reply, 429)


def test_delay_and_fail_combine(server):
    reply = get(server, "/api/items?_delay=200&_fail=503")
    assert_problem(reply, 503)
    assert reply.seconds >= 0.18


def test_knobs_do_not_apply_outside_the_api(server):
    assert get(server, "/healthz?_fail=503").status == 200
    assert get(server, "/healthz?_delay=abc").status == 200


def test_delayed_requests_hold_no_thread_so_healthz_stays_fast(start_server):
    server = start_server("--delay-ms", "10000", "--threads", "2", seed="10")
    waiting = [send_get(server, "/api/items?limit=1") for _ in range(200)]
    try:
        # Two server threads read 200 requests that all wait: a wait holds no thread...
        server.wait_until_read(*waiting)
        # ...and while they wait, other requests are answered.
        assert [get(server, "/healthz").status for _ in range(10)] == [200] * 10
        assert not any(answered(sock) for sock in waiting), "a delayed answer came early"
        assert server.stop() == 0
        assert [status_of(read_until_close(sock, STUCK_SECONDS)) for sock in waiting] == [503] * 200
    finally:
        for sock in waiting:
            sock.close()


def test_delay_ms_delays_every_api_answer(start_server):
    server = start_server("--delay-ms", str(int(DELAY * 1000)), seed="5")
    for path, status in [("/api/items", 200), ("/api/session", 200), ("/api/nope", 404)]:
        reply = get(server, path)
        assert reply.status == status
        assert reply.seconds >= DELAY
    assert get(server, "/healthz").seconds < DELAY
    assert get(server, "/api/items?_delay=0").seconds < DELAY  # the parameter wins for one request


def test_jitter_adds_a_random_delay_up_to_its_value(start_server):
    server = start_server("--jitter-ms", "200", seed="5")
    times = [get(server, "/api/items?limit=1").seconds for _ in range(8)]
    assert max(times) < 10 * 0.2  # milliseconds, not centiseconds or seconds
    assert max(times) - min(times) > 0.01


def test_fail_rate_1_fails_every_api_call_with_503_and_changes_nothing(start_server, tmp_path):
    db = tmp_path / "failing.sqlite"
    server = start_server("--fail-rate", "1", db=db, seed="20")
    calls = [
        lambda: get(server, "/api/items"),
        lambda: get(server, "/api/items/3"),
        lambda: get(server, "/api/session"),
        lambda: get(server, "/api/openapi.json"),
        lambda: post(server, "/api/refresh"),
        lambda: post(server, "/api/items", json={"title": "never stored"}),
    ]
    for make in calls * 3:
        reply = make()
        assert_problem(reply, 503)
        assert reply.header("Retry-After") is not None
        assert reply.header("Set-Cookie") is None
    assert get(server, "/healthz").status == 200
    assert server.stop() == 0
    assert sqlite_rows(db, "SELECT count(*), max(id) FROM items") == [["20", "20"]]
    assert sqlite_rows(db, "SELECT count(*) FROM sessions") == [["0"]]


def test_fail_rate_one_half_answers_a_mix(start_server):
    server = start_server("--fail-rate", "0.5", seed="5")
    statuses = [get(server, "/api/items?limit=1").status for _ in range(60)]
    assert set(statuses) == {200, 503}
    assert 10 <= statuses.count(503) <= 50


def test_a_failed_refresh_under_a_fail_rate_keeps_the_session_state(start_server, tmp_path):
    db = tmp_path / "rate.sqlite"
    server = start_server(db=db, seed="20")
    session = post(server, "/api/refresh").session
    state = get(server, "/api/session", headers=with_session(session)).json()
    assert server.stop() == 0
    failing = start_server("--fail-rate", "1", db=db, seed="20")
    assert post(failing, "/api/refresh", headers=with_session(session)).status == 503
    assert failing.stop() == 0
    again = start_server(db=db, seed="20")
    assert get(again, "/api/session", headers=with_session(session)).json() == state

"""Demo knobs: delays that hold no thread, injected failures that change nothing, fail rates."""
import threading
import time

import pytest

from test_api_support import assert_problem, db_rows, get, post, with_session


def test_delay_param_delays_the_answer_about_that_long(server):
    reply = get(server, "/api/items?_delay=300")
    assert reply.status == 200
    assert 0.28 <= reply.seconds < 1.5
    assert get(server, "/api/items").seconds < 0.5


@pytest.mark.parametrize("value", ["20000", "10001", "-1", "abc", "1.5", "", "%2B300"])
def test_a_bad_delay_is_a_400_naming_it(server, value):
    reply = get(server, f"/api/items?_delay={value}")
    assert_problem(reply, 400, "_delay")
    assert reply.seconds < 1


def test_a_delay_of_10000_is_accepted(server):
    started = time.monotonic()
    with pytest.raises(TimeoutError):  # a refused value would answer 400 at once
        get(server, "/api/items?_delay=10000", timeout=0.5)
    assert time.monotonic() - started >= 0.45


def test_stopping_with_a_delayed_request_waiting_exits_cleanly(server):
    outcome = []

    def wait_for_answer():
        try:
            outcome.append(get(server, "/api/items?_delay=10000", timeout=15).status)
        except OSError as error:
            outcome.append(error)

    thread = threading.Thread(target=wait_for_answer)
    thread.start()
    time.sleep(0.3)
    stopping = time.monotonic()
    assert server.stop() == 0  # a suspended connection must neither crash nor hang the stop
    assert time.monotonic() - stopping < 5
    thread.join(timeout=15)
    assert outcome


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
    server = start_server("--delay-ms", "1000", "--threads", "2", seed="10")
    count = 200
    results = []
    lock = threading.Lock()

    def delayed():
        reply = get(server, "/api/items?limit=1", timeout=20)
        with lock:
            results.append(reply)

    threads = [threading.Thread(target=delayed) for _ in range(count)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the delayed requests are now all waiting
    health = []
    while time.monotonic() - started < 0.8:
        health.append(get(server, "/healthz", timeout=5))
    for thread in threads:
        thread.join(timeout=20)
    assert [reply.status for reply in results] == [200] * count
    assert all(reply.seconds >= 0.95 for reply in results)
    assert health and all(reply.status == 200 for reply in health)
    assert max(reply.seconds for reply in health) < 0.3, [round(r.seconds, 3) for r in health]


def test_delay_ms_delays_every_api_answer(start_server):
    server = start_server("--delay-ms", "300", seed="5")
    for path in ["/api/items", "/api/session", "/api/nope"]:
        assert get(server, path).seconds >= 0.28
    assert get(server, "/healthz").seconds < 0.25
    assert get(server, "/api/items?_delay=0").seconds < 0.25  # the parameter wins for one request


def test_jitter_adds_a_random_delay_up_to_its_value(start_server):
    server = start_server("--jitter-ms", "200", seed="5")
    times = [get(server, "/api/items?limit=1").seconds for _ in range(8)]
    assert max(times) < 0.5
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
    assert db_rows(db, "SELECT count(*), max(id) FROM items") == [(20, 20)]
    assert db_rows(db, "SELECT count(*) FROM sessions") == [(0,)]


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

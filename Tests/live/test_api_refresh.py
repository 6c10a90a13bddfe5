"""POST /api/refresh: newer items, gap, last-updated stamped only on success, concurrency, new items."""
import re
import threading

import pytest

from pulldownkit.client import get, post
from test_api_support import assert_problem, ids, with_session

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def session_state(server, session):
    reply = get(server, "/api/session", headers=with_session(session))
    assert reply.status == 200
    return reply.json()


def test_a_refresh_with_an_empty_body_returns_the_newest_items_and_a_gap(server):
    reply = post(server, "/api/refresh")
    assert reply.status == 200
    result = reply.json()
    assert ids(result["items"]) == list(range(50, 40, -1))
    assert result["gap"] is True  # 50 items are newer than nothing; 10 were returned
    assert re.fullmatch(ISO, result["lastUpdated"])
    assert reply.header("Cache-Control") == "no-store"


def test_a_refresh_after_an_id_returns_the_newer_items_newest_first(server):
    result = post(server, "/api/refresh", json={"after": 45}).json()
    assert ids(result["items"]) == [50, 49, 48, 47, 46]
    assert result["gap"] is False


def test_a_refresh_with_more_newer_items_than_the_limit_reports_a_gap(server):
    result = post(server, "/api/refresh", json={"after": 30}).json()
    assert ids(result["items"]) == list(range(50, 40, -1))
    assert result["gap"] is True
    result = post(server, "/api/refresh", json={"after": 30, "limit": 20}).json()
    assert ids(result["items"]) == list(range(50, 30, -1))
    assert result["gap"] is False


def test_a_refresh_at_the_newest_id_returns_nothing(server):
    assert post(server, "/api/refresh", json={"after": 50}).json()["items"] == []


def test_a_refresh_without_after_uses_the_newest_id_this_session_received(server):
    session = post(server, "/api/refresh").session
    assert post(server, "/api/refresh", headers=with_session(session)).json()["items"] == []
    added = [post(server, "/api/items", json={"title": f"n{i}"}).json()["id"] for i in range(3)]
    result = post(server, "/api/refresh", headers=with_session(session)).json()
    assert ids(result["items"]) == added[::-1]
    assert result["gap"] is False
    assert session_state(server, session)["lastSeenId"] == added[-1]


def test_a_refresh_with_json_null_or_blank_body_counts_as_empty(server):
    assert post(server, "/api/refresh", json={"after": None}).status == 200
    assert post(server, "/api/refresh", body=b"  \n").status == 200


@pytest.mark.parametrize("payload,field", [
    ({"after": -1}, "after"),
    ({"after": "10"}, "after"),
    ({"after": 1.5}, "after"),
    ({"after": True}, "after"),
    ({"limit": 0}, "limit"),
    ({"limit": 101}, "limit"),
    ({"since": 3}, "since"),
])
def test_a_bad_refresh_body_is_a_400_naming_the_field(server, payload, field):
    assert_problem(post(server, "/api/refresh", json=payload), 400, field)


@pytest.mark.parametrize("body,headers,names", [
    (b'{"after": 1}', {"Content-Type": "text/plain"}, ["Content-Type"]),
    (b'{"after": 1}', {}, ["Content-Type"]),
    (b"{after: 1}", {"Content-Type": "application/json"}, []),
    (b"[]", {"Content-Type": "application/json"}, []),
    (b'{"after": 1,}', {"Content-Type": "application/json"}, []),
])
def test_a_refresh_body_that_is_not_a_json_object_is_a_400(server, body, headers, names):
    assert_problem(post(server, "/api/refresh", body=body, headers=headers), 400, *names)


def test_a_failed_refresh_changes_nothing_and_a_successful_one_stamps_the_session(server):
    session = post(server, "/api/refresh").session
    before = session_state(server, session)
    assert before["refreshCount"] == 1
    assert before["lastSeenId"] == 50
    server.wait_for_clock_past(before["lastUpdated"])  # lastUpdated has whole seconds: room to move

    reply = post(server, "/api/refresh?_fail=503", json={"after": 0}, headers=with_session(session))
    assert_problem(reply, 503)
    assert reply.header("Retry-After")
    assert_problem(post(server, "/api/refresh", json={"after": -5}, headers=with_session(session)), 400, "after")
    assert session_state(server, session) == before

    result = post(server, "/api/refresh", headers=with_session(session)).json()
    after = session_state(server, session)
    assert after["refreshCount"] == 2
    assert after["lastUpdated"] == result["lastUpdated"]
    assert after["lastUpdated"] > before["lastUpdated"]


def test_the_refresh_result_last_updated_is_the_sessions_last_updated(server):
    reply = post(server, "/api/refresh")
    assert session_state(server, reply.session)["lastUpdated"] == reply.json()["lastUpdated"]


def test_two_concurrent_refreshes_of_one_session_both_succeed_and_both_count(server):
    session = post(server, "/api/refresh").session
    pairs = 5
    replies = []
    lock = threading.Lock()

    def refresh(barrier):
        barrier.wait()
        reply = post(server, "/api/refresh", headers=with_session(session))
        with lock:
            replies.append(reply)

    for _ in range(pairs):
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=refresh, args=(barrier,)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
    assert [reply.status for reply in replies] == [200] * (2 * pairs)
    assert all(reply.session == session for reply in replies)
    assert session_state(server, session)["refreshCount"] == 1 + 2 * pairs


# How long both tests below let pass on the server's clock after a refresh.
NEW_ITEMS_EVERY = 1


def test_with_new_items_every_second_a_later_refresh_finds_1_to_3_new_items(start_server):
    server = start_server(seed="50", new_items_every=str(NEW_ITEMS_EVERY))
    first = post(server, "/api/refresh")
    newest = first.json()["items"][0]["id"]
    server.wait_for_clock_past(first.json()["lastUpdated"], seconds=NEW_ITEMS_EVERY)
    result = post(server, "/api/refresh", headers=with_session(first.session)).json()
    assert 1 <= len(result["items"]) <= 3
    assert ids(result["items"]) == list(range(newest + len(result["items"]), newest, -1))
    assert result["gap"] is False


def test_without_new_items_every_nothing_appears_by_itself(server):
    first = post(server, "/api/refresh")
    server.wait_for_clock_past(first.json()["lastUpdated"], seconds=NEW_ITEMS_EVERY)
    assert post(server, "/api/refresh", headers=with_session(first.session)).json()["items"] == []

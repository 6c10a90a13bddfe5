"""Two pulldown instances on one PostgreSQL database.

Needs PULLDOWN_TEST_POSTGRES_URL (a database where the user may create databases) and, for the
outage test, PULLDOWN_TEST_POSTGRES_DIR (a cluster made by scripts/postgres.sh, which can halt
and resume it). `make test` sets both; without them these tests are skipped.
"""
import os
import secrets
import subprocess

import pytest

from pulldownkit.client import all_item_ids, http_json
from pulldownkit.server import REPO
from pulldownkit.waiting import wait_until

URL = os.environ.get("PULLDOWN_TEST_POSTGRES_URL", "")
CLUSTER = os.environ.get("PULLDOWN_TEST_POSTGRES_DIR", "")

pytestmark = pytest.mark.skipif(not URL, reason="PULLDOWN_TEST_POSTGRES_URL is not set (make test sets it)")


def psql(sql, url=URL):
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql],
                   check=True, capture_output=True, timeout=30)


@pytest.fixture
def database():
    """A fresh database for this test; its URL. Dropped at the end, connections and all."""
    name = "pulldown_live_" + secrets.token_hex(6)
    psql(f"CREATE DATABASE {name}")
    yield URL.rsplit("/", 1)[0] + "/" + name
    psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pair(start_server, database):
    """Two instances on the same database, the first seeded with 20 items."""
    a = start_server(db=database, seed="20")
    b = start_server(db=database, seed="20")
    return a, b


def all_pages(server):
    """Every item id, walking the Link headers from the newest page down, 7 at a time."""
    return all_item_ids(server, limit=7)


def post(server, title):
    status, headers, item = http_json(server, "POST", "/api/items", {"title": title})
    assert status == 201, item
    return item


def test_items_posted_to_either_instance_appear_in_both_refreshes_and_pages_once(pair):
    a, b = pair
    assert all_pages(a) == list(range(20, 0, -1)), "seeded once, not by both"
    assert all_pages(b) == list(range(20, 0, -1))

    cursor_a = cursor_b = 20
    session_a = session_b = None
    posted, seen_a, seen_b = [], [], []
    for number in range(12):
        posted.append(post(a if number % 2 == 0 else b, f"Item {number}")["id"])
        # Each refresh sees the other instance's item at once, not after some cache expires.
        status, headers, result = http_json(b, "POST", "/api/refresh", {"after": cursor_b, "limit": 100}, session_b)
        assert status == 200, result
        session_b = headers["x-session-id"]
        seen_b += [item["id"] for item in result["items"]]
        cursor_b = max([cursor_b] + seen_b)
        status, headers, result = http_json(a, "POST", "/api/refresh", {"after": cursor_a, "limit": 100}, session_a)
        assert status == 200, result
        session_a = headers["x-session-id"]
        seen_a += [item["id"] for item in result["items"]]
        cursor_a = max([cursor_a] + seen_a)
        assert cursor_a == cursor_b == posted[-1]

    assert posted == list(range(21, 33)), "one id sequence for both instances, no gaps, no duplicates"
    assert sorted(seen_a) == sorted(seen_b) == posted
    assert all_pages(a) == all_pages(b) == list(range(32, 0, -1))
    status, _, newer = http_json(a, "GET", "/api/items?after=20&limit=100")
    assert [item["id"] for item in newer["items"]] == list(range(32, 20, -1))


def test_the_newest_page_on_one_instance_shows_an_item_the_other_just_acknowledged(pair):
    a, b = pair
    for number in range(40):
        writer, reader = (a, b) if number % 2 == 0 else (b, a)
        item = post(writer, f"Item {number}")
        status, _, page = http_json(reader, "GET", "/api/items?limit=5")
        assert status == 200
        assert page["items"][0]["id"] == item["id"], "a cached newest page hid the new item"


def test_a_session_written_through_one_instance_is_read_through_the_other(pair):
    a, b = pair
    status, headers, refreshed = http_json(a, "POST", "/api/refresh", {})
    assert status == 200, refreshed
    token = headers["x-session-id"]
    status, headers, state = http_json(b, "GET", "/api/session", session=token)
    assert status == 200
    assert headers["x-session-id"] == token, "B accepts A's token: the signing secret is shared"
    assert "set-cookie" not in headers, "no new session issued"
    assert state["lastUpdated"] == refreshed["lastUpdated"]
    assert state["lastSeenId"] == 20 and state["refreshCount"] == 1

    b.wait_for_clock_past(refreshed["lastUpdated"])  # lastUpdated has whole seconds: room to move
    status, _, again = http_json(b, "POST", "/api/refresh", {}, token)
    assert again["lastUpdated"] > refreshed["lastUpdated"]
    status, _, state = http_json(a, "GET", "/api/session", session=token)
    assert state["lastUpdated"] == again["lastUpdated"] and state["refreshCount"] == 2


@pytest.mark.skipif(not CLUSTER, reason="PULLDOWN_TEST_POSTGRES_DIR is not set (make test sets it)")
def test_while_postgres_is_stopped_requests_get_503_and_both_recover_without_a_restart(pair):
    a, b = pair
    acknowledged = post(a, "Acknowledged before the outage")
    script = str(REPO / "scripts" / "postgres.sh")
    subprocess.run([script, "halt", CLUSTER], check=True, timeout=60)
    try:
        for server in (a, b):
            for method, path, body in [("GET", "/api/items", None), ("POST", "/api/items", {"title": "Lost?"}),
                                       ("POST", "/api/refresh", {}), ("GET", "/healthz", None)]:
                status, headers, problem = http_json(server, method, path, body)
                assert status == 503, (method, path, problem)
                assert headers["content-type"].startswith("application/problem+json")
                assert headers.get("retry-after") == "1"
                assert problem["status"] == 503
    finally:
        subprocess.run([script, "resume", CLUSTER], check=True, timeout=60)

    for server in (a, b):
        assert wait_until(lambda: http_json(server, "GET", "/healthz")[0] == 200, interval=0.2), "did not recover"
    assert a.process.poll() is None and b.process.poll() is None, "still the same processes"
    ids = all_pages(b)
    assert ids[0] == acknowledged["id"] == 21, "the acknowledged item survived; nothing written while down"
    assert ids == list(range(21, 0, -1))
    after = post(b, "After the outage")
    assert after["id"] == 22
    status, _, result = http_json(a, "POST", "/api/refresh", {"after": 21})
    assert [item["id"] for item in result["items"]] == [22]


def test_a_reset_through_another_instance_ends_every_kept_answer_of_the_old_feed(pair, start_server, database,
                                                                               tmp_path):
    a, _ = pair
    feed = http_json(a, "GET", "/api/items?limit=5")[2]["feed"]
    page, item = f"/api/items?limit=5&before=10&feed={feed}", f"/api/items/3?feed={feed}"
    for path in (page, item):   # kept ready in A's memory from now on
        status, headers, _ = http_json(a, "GET", path)
        assert status == 200 and headers["cache-control"] == "no-cache"
    data = tmp_path / "other.json"
    data.write_text('[{"title": "after the reset"}]')
    # A third instance resets the shared store as it starts: it listens once the reset is committed.
    c = start_server("--data", str(data), "--reset", db=database)
    renewed = http_json(c, "GET", "/api/items")[2]["feed"]
    assert renewed != feed
    # A is told by what the store says, whether or not the notification has reached it yet.
    for path in (page, item):
        status, headers, problem = http_json(a, "GET", path)
        assert status == 410, (path, problem)
        assert problem["type"].endswith("feed-changed")
    newest = http_json(a, "GET", "/api/items")[2]
    assert newest["feed"] == renewed and [i["title"] for i in newest["items"]] == ["after the reset"]


def test_an_edit_or_a_deletion_on_one_instance_shows_at_once_on_the_other(pair):
    a, b = pair
    feed = http_json(a, "GET", "/api/items?limit=5")[2]["feed"]
    page = f"/api/items?limit=5&before=10&feed={feed}"
    assert [item["version"] for item in http_json(a, "GET", page)[2]["items"]] == [1] * 5   # kept in A's memory now
    status, _, edited = http_json(b, "PATCH", "/api/items/8", {"title": "Edited on B"})
    assert status == 200 and edited["version"] == 2
    assert http_json(b, "DELETE", "/api/items/7")[0] == 204
    # A's shared check sees the sequence move and reads the log before it answers, notified or not.
    status, _, shown = http_json(a, "GET", page)
    assert status == 200
    assert [(item["id"], item["version"]) for item in shown["items"]] == [(9, 1), (8, 2), (6, 1), (5, 1)]
    assert shown["changes"] == 22
    assert http_json(a, "GET", f"/api/items/7?feed={feed}")[0] == 410
    changes = http_json(a, "GET", "/api/changes?since=20")[2]["changed"]
    assert [(change["type"], change["sequence"]) for change in changes] == [("updated", 21), ("deleted", 22)]
    assert http_json(a, "POST", "/api/items", {"title": "After them"})[2]["id"] == 23, "one sequence for both instances"

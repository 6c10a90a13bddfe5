"""The consistency walker: while items are edited and deleted at 10 a second, walk the whole feed of
10,000 items with `before=`, then apply `GET /api/changes` from the walk's first answer. What the
walker holds then equals the store, item for item (the same ids, the same versions), no id twice,
no live id missing. On SQLite (the churn knobs), and on two PostgreSQL instances (the walk on
one, the changes made through the other)."""
import sqlite3
import subprocess
import threading

import pytest

from pulldownkit.client import http_json
from pulldownkit.waiting import wait_until
from test_postgres import URL, database  # noqa: F401 (a fixture)

ITEMS = 10_000
LIMIT = 25
# Walking is faster than 10 changes a second: every so many pages the walker waits until the
# feed has changed since, so changes land all along the walk, not only around it.
PAGES_BETWEEN_CHANGES = 40
MERGE = {"Content-Type": "application/merge-patch+json"}


def get(server, path):
    status, _, body = http_json(server, "GET", path)
    assert status == 200, (path, status, body)
    return body


def changed_since(server, sequence):
    """Waits until the feed's sequence is past `sequence`; returns where it is."""
    moved = wait_until(lambda: (now := get(server, "/api/items?limit=1")["changes"]) > sequence and now)
    assert moved, "the feed stopped changing"
    return moved


def walk(server):
    """Every item, page by page from the newest with `before=`, and the first page's `changes`."""
    page = get(server, f"/api/items?limit={LIMIT}")
    since, feed = page["changes"], page["feed"]
    held, order, seen = {}, [], since
    for pages in range(1, ITEMS):
        for item in page["items"]:
            assert item["id"] not in held, f"{item['id']} twice"
            held[item["id"]] = item
            order.append(item["id"])
        if not page["hasMore"]:
            break
        if pages % PAGES_BETWEEN_CHANGES == 0:
            seen = changed_since(server, seen)
        page = get(server, f"/api/items?limit={LIMIT}&before={page['next']}&feed={feed}")
    assert order == sorted(order, reverse=True), "newest first across pages"
    return held, since, feed


def apply_changes(server, held, since, feed):
    """`held` with every change after `since` applied; how many there were."""
    applied = 0
    while True:
        answer = get(server, f"/api/changes?since={since}&limit=1000&feed={feed}")
        for change in answer["changed"]:
            if change["type"] == "deleted":
                held.pop(change["id"], None)
            elif change["item"]["id"] in held:
                held[change["item"]["id"]] = change["item"]
        applied += len(answer["changed"])
        since = answer["changes"]
        if not answer["hasMore"]:
            return applied


def check(held, store):
    assert {item_id: item["version"] for item_id, item in held.items()} == store, "the walker's feed is the store's"


def test_a_walk_while_items_change_then_the_changes_since_equals_the_store_on_sqlite(start_server, tmp_path):
    db = tmp_path / "walked.sqlite"
    server = start_server(db=str(db), seed=str(ITEMS))
    # 8 edits and 2 deletions a second.
    http_json(server, "PATCH", "/api/demo", {"editsPerMinute": 480, "deletesPerMinute": 120}, headers=MERGE, expect=200)
    held, since, feed = walk(server)
    http_json(server, "PATCH", "/api/demo", {"editsPerMinute": 0, "deletesPerMinute": 0}, headers=MERGE, expect=200)
    changed_during = apply_changes(server, held, since, feed)
    assert changed_during >= 10, f"only {changed_during} changes while the walk went on"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as store:
        check(held, dict(store.execute("SELECT id, version FROM items WHERE deleted = 0")))
    assert len(held) < ITEMS, "some were deleted"


@pytest.mark.skipif(not URL, reason="PULLDOWN_TEST_POSTGRES_URL is not set (make test sets it)")
def test_the_same_on_two_postgresql_instances_walking_one_while_the_other_changes(start_server, database):  # noqa: F811
    walker = start_server(db=database, seed=str(ITEMS))
    changer = start_server(db=database, seed=str(ITEMS))
    stop, made = threading.Event(), []

    def churn():
        # 10 a second through the other instance: 4 edits and 1 deletion every half second.
        while not stop.wait(0.5):
            made.extend(http_json(changer, "POST", "/api/demo/churn", {"edits": 4, "deletes": 1}, expect=200)[2]["changed"])

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        held, since, feed = walk(walker)
    finally:
        stop.set()
        worker.join()
    changed_during = apply_changes(walker, held, since, feed)
    assert made and changed_during >= 10, f"only {changed_during} changes while the walk went on"
    rows = subprocess.run(["psql", "-At", "-F", " ", database, "-c", "SELECT id, version FROM items WHERE deleted = 0"],
                          check=True, capture_output=True, text=True, timeout=30).stdout.split()
    check(held, {int(rows[index]): int(rows[index + 1]) for index in range(0, len(rows), 2)})

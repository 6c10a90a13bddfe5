"""Crash safety, one round: clients post items and refresh as fast as they can, the server is
killed with SIGKILL, and after a restart every item whose 201 reached a client is there, every
refresh whose answer reached a client is remembered, and SQLite's integrity check passes.

The fault test runs two rounds; `make soak` repeats it under heavier load."""
import datetime
import http.client
import json
import signal
import threading
import time

from pulldownkit.client import all_item_ids, get
from pulldownkit.server import start_server
from pulldownkit.store import sqlite_rows
from pulldownkit.waiting import STUCK_SECONDS, wait_until


def _poster(server, acknowledged, stop, index):
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
            while not stop.is_set():
                title = f"crash test {index} {time.monotonic_ns()}"
                connection.request("POST", "/api/items", body=json.dumps({"title": title}),
                                   headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                data = response.read()
                if response.status == 201:
                    acknowledged.append((json.loads(data)["id"], title))
        except (OSError, http.client.HTTPException, ValueError):
            stop.wait(0.01)  # the server is gone (killed); retry until the round ends


def _refresher(server, sessions, refreshed, stop):
    token = None
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
            while not stop.is_set():
                headers = {"Content-Type": "application/json"}
                if token:
                    headers["X-Session-Id"] = token
                connection.request("POST", "/api/refresh", body=b"{}", headers=headers)
                response = connection.getresponse()
                data = response.read()
                if response.status == 200:
                    token = response.getheader("X-Session-Id")
                    previous = sessions.get(token, (None, 0))
                    sessions[token] = (json.loads(data)["lastUpdated"], previous[1] + 1)
                    refreshed.append(token)
        except (OSError, http.client.HTTPException, ValueError):
            stop.wait(0.01)  # the server is gone (killed); retry until the round ends


def crash_round(folder, db, *, items=50, refreshes=20, seconds=0.0, posters=4, refreshers=2, binary_args=()):
    """One round: load until `items` posts and `refreshes` refreshes are acknowledged and at least
    `seconds` have passed, SIGKILL while the load goes on, checks.
    Returns (items acknowledged, refreshes acknowledged)."""
    server = start_server(folder, *binary_args, db=db)
    acknowledged, sessions, refreshed, stop = [], {}, [], threading.Event()
    threads = [threading.Thread(target=_poster, args=(server, acknowledged, stop, i)) for i in range(posters)]
    threads += [threading.Thread(target=_refresher, args=(server, sessions, refreshed, stop)) for _ in range(refreshers)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        assert wait_until(lambda: len(acknowledged) >= items and len(refreshed) >= refreshes
                          and time.monotonic() - started >= seconds, timeout=seconds + STUCK_SECONDS), \
            f"{len(acknowledged)} posts and {len(refreshed)} refreshes acknowledged"
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=STUCK_SECONDS)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=STUCK_SECONDS)
        server.stop()

    assert sqlite_rows(db, "PRAGMA integrity_check") == [["ok"]]
    again = start_server(folder, *binary_args, db=db)
    try:
        stored = set(all_item_ids(again))
        missing = [item_id for item_id, _ in acknowledged if item_id not in stored]
        assert not missing, f"{len(missing)} acknowledged items lost, e.g. {missing[:5]}"
        for item_id, title in acknowledged[-5:]:
            assert get(again, f"/api/items/{item_id}", timeout=10).json()["title"] == title
        for token, (last_updated, count) in sessions.items():
            state = get(again, "/api/session", headers={"X-Session-Id": token}, timeout=10).json()
            assert state["lastUpdated"] is not None, f"session {token[:8]} forgotten"
            assert parse(state["lastUpdated"]) >= parse(last_updated)
            assert state["refreshCount"] >= count
    finally:
        assert again.stop() == 0
    return len(acknowledged), sum(count for _, count in sessions.values())


def parse(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))

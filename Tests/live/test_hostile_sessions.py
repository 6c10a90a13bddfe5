"""Sessions under attack: ids are unguessable, one session can neither read nor change another,
requests without cookies store nothing, and the page's CSP would stop an inline script."""
import http.client
import re
import threading

from pulldownkit.store import sqlite_rows
from test_hostile_support import http_json

TOKEN = re.compile(r"^[0-9a-f]{64}$")


def new_tokens(server, count, threads=4):
    """Session ids issued to `count` cookie-less reads of /api/session (none is stored)."""
    tokens = []
    lock = threading.Lock()

    def worker(share):
        connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
        mine = []
        for _ in range(share):
            connection.request("GET", "/api/session")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
            mine.append(response.getheader("X-Session-Id"))
        connection.close()
        with lock:
            tokens.extend(mine)

    workers = [threading.Thread(target=worker, args=(count // threads,)) for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return tokens


def test_session_ids_are_64_hex_with_128_random_bits(start_server):
    server = start_server(seed="5")
    tokens = new_tokens(server, 2000)
    assert len(tokens) == 2000
    assert all(TOKEN.match(token) for token in tokens)
    ids = [token[:32] for token in tokens]
    assert len(set(tokens)) == len(set(ids)) == 2000
    # Every one of the 128 id bits is set in about half the ids: none is fixed, counted or
    # derived from a clock (for 2000 fair coins the share stays within 0.4-0.6 by a wide margin).
    values = [int(identifier, 16) for identifier in ids]
    for bit in range(128):
        share = sum((value >> bit) & 1 for value in values) / len(values)
        assert 0.4 < share < 0.6, (bit, share)
    # Consecutive ids share no long prefix, as a counter or a timestamp would.
    assert max(len(_common_prefix(a, b)) for a, b in zip(ids, ids[1:])) < 8


def _common_prefix(a, b):
    size = 0
    while size < len(a) and a[size] == b[size]:
        size += 1
    return a[:size]


def test_one_session_can_neither_read_nor_change_another(start_server):
    server = start_server(seed="30")
    _, alice_headers, alice_refresh = http_json(server, "POST", "/api/refresh", {"after": 10})
    alice = alice_headers["x-session-id"]
    alice_state = http_json(server, "GET", "/api/session", headers={"X-Session-Id": alice})[2]
    _, bob_headers, _ = http_json(server, "POST", "/api/refresh", {"after": 25})
    bob = bob_headers["x-session-id"]
    assert bob != alice

    # Bob refreshes, with his header, his cookie, and with Alice's id under his signature.
    spliced = alice[:32] + bob[32:]
    for headers in [{"X-Session-Id": bob}, {"Cookie": f"pulldown_session={bob}"},
                    {"X-Session-Id": spliced}, {"Cookie": f"pulldown_session={spliced}"},
                    {"X-Session-Id": alice[:32] + "0" * 32}, {"X-Session-Id": alice.upper()}]:
        status, reply_headers, state = http_json(server, "POST", "/api/refresh", {"after": 29}, headers=headers)
        assert status == 200
        assert reply_headers["x-session-id"] != alice
        status, reply_headers, state = http_json(server, "GET", "/api/session", headers=headers)
        assert reply_headers["x-session-id"] != alice
        assert state != alice_state or state["refreshCount"] == 0
    assert http_json(server, "GET", "/api/session", headers={"X-Session-Id": alice})[2] == alice_state
    # Bob's own state moved; Alice's did not.
    bob_state = http_json(server, "GET", "/api/session", headers={"X-Session-Id": bob})[2]
    assert bob_state["refreshCount"] == 3 and bob_state["lastSeenId"] == 30
    assert alice_state["refreshCount"] == 1 and alice_state["lastSeenId"] == 30


def test_a_forged_id_sent_next_to_a_real_one_never_selects_the_real_ones_state(start_server):
    server = start_server(seed="10")
    _, headers, _ = http_json(server, "POST", "/api/refresh", {"after": 3})
    real = headers["x-session-id"]
    before = http_json(server, "GET", "/api/session", headers={"X-Session-Id": real})[2]
    forged = "f" * 64
    _, reply_headers, _ = http_json(server, "POST", "/api/refresh", {},
                                    headers={"X-Session-Id": forged, "Cookie": f"pulldown_session={forged}"})
    assert reply_headers["x-session-id"] not in (real, forged)
    assert http_json(server, "GET", "/api/session", headers={"X-Session-Id": real})[2] == before


def test_ten_thousand_requests_without_cookies_store_no_session(start_server, tmp_path):
    db = tmp_path / "cookieless.sqlite"
    server = start_server(db=db, seed="20")
    requests = [("GET", "/api/session", None), ("GET", "/api/items?limit=5", None), ("HEAD", "/api/session", None),
                ("GET", "/api/items/3", None), ("POST", "/api/refresh", b'{"after": "x"}'),
                ("POST", "/api/refresh", b'{"unknown": 1}'), ("GET", "/api/items?_fail=503", None),
                ("POST", "/api/refresh?_fail=500", b"{}"), ("GET", "/healthz", None), ("POST", "/api/items", b"{}")]
    counts = {"done": 0}
    lock = threading.Lock()

    def worker(offset):
        connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
        done = 0
        for index in range(2500):
            method, path, body = requests[(index + offset) % len(requests)]
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            assert response.status in (200, 400, 429, 500, 503), (method, path, response.status)
            done += 1
        connection.close()
        with lock:
            counts["done"] += done

    workers = [threading.Thread(target=worker, args=(offset,)) for offset in range(4)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    assert counts["done"] == 10_000
    assert server.stop() == 0
    assert sqlite_rows(db, "SELECT count(*) FROM sessions") == [["0"]]


def test_the_page_csp_would_block_an_inline_script(start_server):
    server = start_server(seed="1")
    connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
    connection.request("GET", "/")
    response = connection.getresponse()
    response.read()
    policy = response.getheader("Content-Security-Policy")
    directives = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        directives[name.lower()] = sources
    scripts = directives.get("script-src", directives.get("default-src"))
    assert scripts is not None, policy
    # An inline <script> or onerror= runs only with 'unsafe-inline' (or a nonce/hash matching it),
    # or if a wildcard or data:/blob: source lets an injected script element load code.
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts
    assert not any(source.startswith(("'nonce-", "'sha")) for source in scripts)
    assert not any(source in ("*", "data:", "blob:", "http:", "https:") for source in scripts)
    assert "'unsafe-inline'" not in policy
    assert directives["base-uri"] == ["'none'"]

"""Helpers for the hostile-input, fault and property tests: raw sockets, a health probe, the
state that must not change, and a crash check on the server's standard error.

Named test_hostile_* so it lives with those tests; it holds no tests itself.
"""
import json
import re
import select
import shutil
import socket
import sqlite3
import subprocess

CRASH_MARKERS = ["Fatal error", "Stack dump", "Current stack trace", "Aborted", "core dumped",
                 "Illegal instruction", "Segmentation", "panic", "Swift runtime failure"]
STATUS = re.compile(rb"^HTTP/1\.[01] (\d{3}) ")


def exchange(server, data, timeout=5, shutdown_write=False):
    """Sends raw bytes on a fresh connection and reads until the server closes or goes quiet.

    Returns the bytes received (b"" when the server closed without answering). A reset counts
    as a close."""
    with send_raw(server, data, timeout=timeout, shutdown_write=shutdown_write) as sock:
        return read_until_close(sock, timeout, data)


def send_raw(server, data, timeout=5, shutdown_write=False):
    """A fresh connection with `data` sent on it; the caller reads (read_until_close) and closes."""
    sock = socket.create_connection((server.host, server.port), timeout=timeout)
    try:
        sock.sendall(data)
        if shutdown_write:
            sock.shutdown(socket.SHUT_WR)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sock


def read_until_close(sock, timeout=5, sent=b""):
    """Everything the server sends on `sock` until it closes it; fails after `timeout` s of silence."""
    sock.settimeout(timeout)
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    except ConnectionResetError:
        pass
    except socket.timeout:
        if not received:
            raise AssertionError(f"no answer and no close within {timeout} s for {sent[:120]!r}")
    return received


def send_get(server, target):
    """A GET of `target` sent on its own connection, asking the server to close it after the answer."""
    return send_raw(server, f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())


def answered(sock):
    """True when the server has sent something on `sock` (or closed it); does not wait."""
    return bool(select.select([sock], [], [], 0)[0])


def status_of(raw):
    """The status of the first response in `raw`, or None when there is none."""
    match = STATUS.match(raw)
    return int(match.group(1)) if match else None


def healthy(server, timeout=3):
    """True when /healthz answers 200 on a fresh connection."""
    try:
        raw = exchange(server, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                       timeout=timeout)
    except OSError:
        return False
    return status_of(raw) == 200 and b'"status":"ok"' in raw


def http_json(server, method, path, body=None, headers=None, timeout=10):
    """One request with http.client; returns (status, headers dict lower-cased, parsed JSON or None)."""
    import http.client
    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
        all_headers = dict(headers or {})
        if payload is not None:
            all_headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=payload, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        parsed = None
        if data and (response.getheader("Content-Type") or "").split(";")[0].endswith("json"):
            parsed = json.loads(data)
        return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed
    finally:
        connection.close()


def all_item_ids(server, limit=100):
    """Every item id, newest first, by following the pages."""
    ids = []
    path = f"/api/items?limit={limit}"
    while path:
        status, headers, page = http_json(server, "GET", path)
        assert status == 200, (path, status)
        ids.extend(item["id"] for item in page["items"])
        link = headers.get("link")
        path = re.match(r"<([^>]+)>", link).group(1) if link else None
    return ids


def assert_no_crash(server):
    text = server.stderr()
    for marker in CRASH_MARKERS:
        assert marker not in text, f"{marker!r} in the server's standard error:\n{text[-2000:]}"


def sqlite_rows(path, query):
    """Runs a query on a stopped server's database with the sqlite3 program when there is one."""
    if shutil.which("sqlite3"):
        result = subprocess.run(["sqlite3", "-readonly", str(path), query], capture_output=True, text=True,
                                timeout=30, check=True)
        return [line.split("|") for line in result.stdout.splitlines()]
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [[str(value) for value in row] for row in connection.execute(query).fetchall()]
    finally:
        connection.close()

"""Helpers for the hostile-input, fault and property tests: requests on their own connection,
replies as (status, headers, JSON), and a crash check on the server's standard error. Raw
sockets and the health probe are in pulldownkit.raw.

Named test_hostile_* so it lives with those tests; it holds no tests itself.
"""
import select

from pulldownkit.client import call
from pulldownkit.raw import send_raw


def send_get(server, target):
    """A GET of `target` sent on its own connection, asking the server to close it after the answer."""
    return send_raw(server, f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())


def answered(sock):
    """True when the server has sent something on `sock` (or closed it); does not wait."""
    return bool(select.select([sock], [], [], 0)[0])


def http_json(server, method, path, body=None, headers=None, timeout=10):
    """One request; returns (status, headers dict lower-cased, parsed JSON or None). A body that
    is not bytes is sent as JSON; any body is labelled application/json unless `headers` say otherwise."""
    headers = dict(headers or {})
    if isinstance(body, bytes):
        headers.setdefault("Content-Type", "application/json")
        reply = call(server, method, path, body=body, headers=headers, timeout=timeout)
    else:
        reply = call(server, method, path, json=body, headers=headers, timeout=timeout)
    return reply.status, {name.lower(): value for name, value in reply.headers}, reply.json_or_none()


def assert_no_crash(server):
    markers = server.crashes()
    assert not markers, f"{markers!r} in the server's standard error:\n{server.stderr()[-2000:]}"

"""Helpers for the hostile-input, fault and property tests: requests on their own connection,
replies as (status, headers, JSON) (pulldownkit.client's http_json), and a crash check on the
server's standard error. Raw sockets and the health probe are in pulldownkit.raw.

Named test_hostile_* so it lives with those tests; it holds no tests itself.
"""
import select

from pulldownkit.client import http_json  # noqa: F401 (the tests import it from here)
from pulldownkit.raw import send_raw


def send_get(server, target):
    """A GET of `target` sent on its own connection, asking the server to close it after the answer."""
    return send_raw(server, f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())


def answered(sock):
    """True when the server has sent something on `sock` (or closed it); does not wait."""
    return bool(select.select([sock], [], [], 0)[0])


def assert_no_crash(server):
    markers = server.crashes()
    assert not markers, f"{markers!r} in the server's standard error:\n{server.stderr()[-2000:]}"

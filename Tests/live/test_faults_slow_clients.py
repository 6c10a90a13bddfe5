"""Slow clients: a request that arrives a byte a second (slowloris) or a body that trickles in is
cut off by the connection timeout, and while it lasts everyone else is served as usual."""
import socket
import threading
import time

from pulldownkit.raw import exchange, healthy, status_of
from pulldownkit.waiting import STUCK_SECONDS, wait_until
from test_hostile_support import assert_no_crash

TIMEOUT = 2
# How long after the timeout a cut may come before it counts as missing: the server looks every
# quarter second, busy cores add a little. Without the cut, the slowest client here lasts 40 s.
LATE = 5


def trickle(server, data, result, pause=1.0):
    """Sends `data` one byte per `pause` seconds; records its port, and when and how the server ended it."""
    started = time.monotonic()
    result.update(answer=b"", closed_after=None, sent=0)
    with socket.create_connection((server.host, server.port), timeout=STUCK_SECONDS) as sock:
        result["port"] = sock.getsockname()[1]
        sock.settimeout(pause)
        for index in range(len(data)):
            try:
                sock.sendall(data[index:index + 1])
                result["sent"] = index + 1
                chunk = sock.recv(4096)  # the pause between bytes, cut short if the server closes
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                chunk = b""
            result["answer"] += chunk
            if not chunk:
                result["closed_after"] = time.monotonic() - started
                return


def test_a_request_head_sent_a_byte_a_second_is_cut_off_and_others_are_served(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 40 + b"\r\n\r\n"
    results = [{} for _ in range(8)]
    threads = [threading.Thread(target=trickle, args=(server, head, result)) for result in results]
    for thread in threads:
        thread.start()

    def slow_ones_held():
        ports = {result.get("port") for result in results}
        return None not in ports and ports <= server.unread_bytes().keys()
    # Normal requests are answered while the server holds every slow client: they are held
    # before the probes and still after them.
    assert wait_until(slow_ones_held), results
    assert all(healthy(server) for _ in range(5))
    assert slow_ones_held(), "a slow client was cut while the probes ran"
    for thread in threads:
        thread.join(timeout=len(head) + STUCK_SECONDS)
    for result in results:
        assert result["closed_after"] is not None, f"still open after {result['sent']} bytes"
        assert TIMEOUT - 0.5 <= result["closed_after"] <= TIMEOUT + LATE, result
        assert result["answer"] == b"", "a request that never finished got an answer"
        assert result["sent"] < len(head)
    assert healthy(server)
    assert_no_crash(server)


def test_a_body_that_trickles_in_is_cut_off_too(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    body = b'{"title": "' + b"x" * 30 + b'"}'
    head = (b"POST /api/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    with socket.create_connection((server.host, server.port), timeout=STUCK_SECONDS) as sock:
        sock.sendall(head)
        started = time.monotonic()
        sock.settimeout(1.0)
        closed_after = None
        for index in range(len(body)):
            try:
                sock.sendall(body[index:index + 1])
                if not sock.recv(4096):  # the pause between bytes, cut short if the server closes
                    closed_after = time.monotonic() - started
                    break
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.monotonic() - started
                break
    assert closed_after is not None and closed_after <= TIMEOUT + LATE, closed_after
    # Nothing half-sent was stored.
    raw = exchange(server, b"GET /api/items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert b'"items":[]' in raw
    assert_no_crash(server)


def test_a_kept_alive_connection_that_keeps_asking_is_never_cut(start_server):
    # The deadline is per request: a client that sends whole requests often stays connected.
    server = start_server("--connection-timeout", str(TIMEOUT))
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    with socket.create_connection((server.host, server.port), timeout=STUCK_SECONDS) as sock:
        opened = time.monotonic()
        answers = 0
        while time.monotonic() - opened < TIMEOUT * 2.5:
            sock.sendall(request)
            data = b""
            while b'"status":"ok"}' not in data:
                chunk = sock.recv(4096)
                assert chunk, f"closed after {answers} answers"
                data += chunk
            assert status_of(data) == 200
            answers += 1
            assert silent_for(sock, TIMEOUT / 4), f"closed while idle after {answers} answers"


def silent_for(sock, seconds):
    """True when nothing, not even a close, comes on `sock` for `seconds`: an idle client's pause."""
    sock.settimeout(seconds)
    try:
        sock.recv(1)
        return False
    except socket.timeout:
        return True
    finally:
        sock.settimeout(STUCK_SECONDS)


def test_an_idle_connection_is_closed_after_the_timeout(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT + LATE) as sock:
        started = time.monotonic()
        assert sock.recv(1) == b""
        assert TIMEOUT - 0.5 <= time.monotonic() - started <= TIMEOUT + LATE

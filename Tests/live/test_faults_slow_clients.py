"""Slow clients: a request that arrives a byte a second (slowloris) or a body that trickles in is
cut off by the connection timeout, and while it lasts everyone else is served as usual."""
import socket
import threading
import time

from test_hostile_support import assert_no_crash, exchange, healthy, status_of

TIMEOUT = 2


def trickle(server, data, result, pause=1.0):
    """Sends `data` one byte per `pause` seconds; records when and how the server ended it."""
    started = time.monotonic()
    result.update(answer=b"", closed_after=None, sent=0)
    with socket.create_connection((server.host, server.port), timeout=15) as sock:
        sock.settimeout(pause)
        for index in range(len(data)):
            try:
                sock.sendall(data[index:index + 1])
                result["sent"] = index + 1
                chunk = sock.recv(4096)
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                chunk = b""
            result["answer"] += chunk
            if not chunk:
                result["closed_after"] = time.monotonic() - started
                return
        result["closed_after"] = None


def test_a_request_head_sent_a_byte_a_second_is_cut_off_and_others_are_served(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 40 + b"\r\n\r\n"
    results = [{} for _ in range(8)]
    threads = [threading.Thread(target=trickle, args=(server, head, result)) for result in results]
    for thread in threads:
        thread.start()
    # While the slow clients hold their connections, normal requests are answered at once.
    served = []
    deadline = time.monotonic() + TIMEOUT + 1
    while time.monotonic() < deadline:
        started = time.monotonic()
        assert healthy(server, timeout=2)
        served.append(time.monotonic() - started)
        time.sleep(0.1)
    for thread in threads:
        thread.join(timeout=15)
    for result in results:
        assert result["closed_after"] is not None, f"still open after {result['sent']} bytes"
        assert TIMEOUT - 0.5 <= result["closed_after"] <= TIMEOUT + 2, result
        assert result["answer"] == b"", "a request that never finished got an answer"
        assert result["sent"] < len(head)
    assert max(served) < 1.0, served
    assert healthy(server)
    assert_no_crash(server)


def test_a_body_that_trickles_in_is_cut_off_too(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    body = b'{"title": "' + b"x" * 30 + b'"}'
    head = (b"POST /api/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    with socket.create_connection((server.host, server.port), timeout=15) as sock:
        sock.sendall(head)
        started = time.monotonic()
        sock.settimeout(1.0)
        closed_after = None
        for index in range(len(body)):
            try:
                sock.sendall(body[index:index + 1])
                if not sock.recv(4096):
                    closed_after = time.monotonic() - started
                    break
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.monotonic() - started
                break
    assert closed_after is not None and closed_after <= TIMEOUT + 2, closed_after
    # Nothing half-sent was stored.
    raw = exchange(server, b"GET /api/items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert b'"items":[]' in raw
    assert_no_crash(server)


def test_a_kept_alive_connection_that_keeps_asking_is_never_cut(start_server):
    # The deadline is per request: a client that sends whole requests often stays connected.
    server = start_server("--connection-timeout", str(TIMEOUT))
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        answers = 0
        started = time.monotonic()
        while time.monotonic() - started < TIMEOUT * 2.5:
            sock.sendall(request)
            data = b""
            while b'"status":"ok"}' not in data:
                chunk = sock.recv(4096)
                assert chunk, f"closed after {answers} answers"
                data += chunk
            assert status_of(data) == 200
            answers += 1
            time.sleep(TIMEOUT / 4)
    assert answers >= 8


def test_an_idle_connection_is_closed_after_the_timeout(start_server):
    server = start_server("--connection-timeout", str(TIMEOUT))
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT + 3) as sock:
        started = time.monotonic()
        assert sock.recv(1) == b""
        assert TIMEOUT - 0.5 <= time.monotonic() - started <= TIMEOUT + 2

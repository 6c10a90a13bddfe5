"""The server's life: the access log, and stopping on SIGTERM / SIGINT, also with a
delayed request in flight (the client gets 503 and the process exits 0, no abort)."""
import http.client
import signal
import socket
import time

import pytest

from pulldownkit.raw import read_until_close, status_of
from pulldownkit.waiting import STUCK_SECONDS
from test_hostile_support import answered, assert_no_crash, send_get

# README, "What the server promises": a stop exits 0 within a second, delayed answers included.
STOP_PROMISE_SECONDS = 1.0


def get(server, path, method="GET", headers=None):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response, response.read()
    finally:
        conn.close()


def test_access_log_line_per_request(start_server):
    server = start_server(quiet=False)
    _, _, body = get(server, "/")
    get(server, "/missing?secret=1")
    get(server, "/api/items", method="DELETE")
    # Once the process has exited, every line it would write is in the file.
    assert server.stop() == 0
    parsed = server.access_log()
    # A line is written when its request ends, on the server thread that served it; a client can
    # read an answer before that, so lines of separate connections come in any order.
    assert sorted((p["method"], p["path"], p["status"]) for p in parsed) == [
        ("DELETE", "/api/items", "405"), ("GET", "/", "200"), ("GET", "/missing", "404")]
    assert next(p for p in parsed if p["path"] == "/")["bytes"] == str(len(body))
    assert all(float(p["ms"]) >= 0 for p in parsed)
    assert "secret=1" not in server.stderr(), "query strings stay out of the log"


def test_access_log_cannot_be_forged_with_control_characters(start_server):
    server = start_server(quiet=False)
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(b"GET /a%0d%0aGET%20/forged%20200%201B%201.0ms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        while sock.recv(65536):
            pass
    get(server, "/healthz")
    assert server.stop() == 0
    assert sorted(p["path"] for p in server.access_log()) == ["/a%0d%0aGET%20/forged%20200%201B%201.0ms", "/healthz"]
    assert not any(line.startswith("GET /forged") for line in server.stderr().splitlines())


def test_quiet_writes_no_access_log(start_server):
    server = start_server(quiet=True)
    assert get(server, "/")[0] == 200
    assert get(server, "/missing")[0] == 404
    assert server.stop() == 0
    assert server.access_log() == [], server.stderr()


def stop_and_time(server, sig):
    started = time.monotonic()
    server.process.send_signal(sig)
    try:
        code = server.process.wait(timeout=STUCK_SECONDS)
    except Exception:
        pytest.fail(f"{sig.name} did not stop the server within {STUCK_SECONDS} s")
    took = time.monotonic() - started
    print(f"stop took {took:.3f} s")
    return code, took


def assert_stopping_answer(raw):
    """The answer the stop gives a request still waiting: 503 problem+json, retry in a second."""
    assert status_of(raw) == 503, raw[:200]
    assert b"\r\nRetry-After: 1\r\n" in raw, raw[:400]
    assert b'"status":503' in raw


def assert_clean_exit(server, code):
    assert code == 0, server.stderr()
    assert "suspended connections" not in server.stderr()
    assert_no_crash(server)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_stops_an_idle_server_quickly_with_exit_0(start_server, sig):
    server = start_server()
    assert get(server, "/healthz")[0] == 200
    # An idle keep-alive connection must not hold the stop up.
    idle = http.client.HTTPConnection(server.host, server.port, timeout=5)
    idle.request("GET", "/healthz")
    idle.getresponse().read()
    code, took = stop_and_time(server, sig)
    idle.close()
    assert_clean_exit(server, code)
    assert took < STOP_PROMISE_SECONDS, f"took {took:.2f} s"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_with_a_delayed_request_in_flight_answers_503_and_exits_0(start_server, sig):
    server = start_server("--delay-ms", "10000", seed="5")
    with send_get(server, "/api/items") as waiting:
        server.wait_until_read(waiting)  # the request is now suspended, waiting for its delay
        code, took = stop_and_time(server, sig)
        assert_stopping_answer(read_until_close(waiting, STUCK_SECONDS))
    assert_clean_exit(server, code)
    assert took < STOP_PROMISE_SECONDS, f"took {took:.2f} s"


def test_several_delayed_requests_all_get_an_answer_on_stop(start_server):
    server = start_server("--delay-ms", "10000", seed="5")
    waiting = [send_get(server, "/api/items") for _ in range(8)]
    try:
        server.wait_until_read(*waiting)
        code, _ = stop_and_time(server, signal.SIGTERM)
        for sock in waiting:
            assert_stopping_answer(read_until_close(sock, STUCK_SECONDS))
    finally:
        for sock in waiting:
            sock.close()
    assert_clean_exit(server, code)


@pytest.mark.parametrize("phase", ["during-grace", "after-grace"])
def test_request_arriving_on_a_kept_alive_connection_while_stopping_gets_503_not_an_abort(start_server, phase):
    """Regression: a request suspended after stop had answered the waiting ones made
    libmicrohttpd abort ("MHD_stop_daemon() called while we have suspended connections").

    The phases are told apart by an event, not a time: the stop's grace ends when it answers
    the waiting request."""
    server = start_server("--delay-ms", "10000", seed="5")
    waiting = send_get(server, "/api/items")  # keeps the grace period busy
    kept = socket.create_connection((server.host, server.port), timeout=5)  # kept alive, used later
    kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert kept.recv(65536).startswith(b"HTTP/1.1 200")
    slow_body = socket.create_connection((server.host, server.port), timeout=5)
    # A body still arriving keeps requests in flight through the stop.
    slow_body.sendall(b"POST /api/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
    try:
        server.wait_until_read(waiting, kept, slow_body)
        server.process.send_signal(signal.SIGTERM)
        if phase == "after-grace":
            assert_stopping_answer(read_until_close(waiting, STUCK_SECONDS))
        kept.sendall(b"GET /api/items HTTP/1.1\r\nHost: x\r\n\r\n")
        if phase == "during-grace":
            assert not answered(waiting), "the grace ended before the late request was sent"
        answer = read_until_close(kept, STUCK_SECONDS)
        code = server.process.wait(timeout=STUCK_SECONDS)
    finally:
        for sock in (waiting, kept, slow_body):
            sock.close()
    assert_clean_exit(server, code)
    if phase == "during-grace":
        # Sent while the stop still lets requests in: it waits with the others, then gets 503.
        assert_stopping_answer(answer)
    else:
        # Sent after the waiting ones were answered: 503 at once while the stop flushes, or a
        # closed connection once it is done; both are clean, an abort is not.
        assert answer == b"" or status_of(answer) == 503, answer[:100]

"""One SIGTERM under load: wrk's mixed traffic running, delayed answers waiting, then the stop.

Shared by the live tests (a few rounds) and `make soak` (a hundred): each round is a fresh
server, and says how it ended."""
import dataclasses
import signal
import subprocess
import time

from pulldownkit.mixed_load import start_wrk, stop_wrk
from pulldownkit.raw import read_until_close, send_raw, status_of
from pulldownkit.server import LOG_LINE, crash_markers, start_server
from pulldownkit.waiting import STUCK_SECONDS, wait_until


@dataclasses.dataclass
class StopRound:
    code: object  # the exit code, or a text when the process had to be killed
    seconds: float
    delayed_statuses: list
    stray_stderr: list  # lines on stderr that are neither access-log lines nor expected
    crashes: list
    wrk_output: str


def sigterm_round(folder, *args, connections=64, delayed=16, answers_first=100, seed="300"):
    """Starts a server with `args`, loads it with wrk, parks `delayed` requests that wait 10 s,
    waits until `answers_first` answers are logged and the parked requests are read, sends
    SIGTERM and times the exit."""
    server = start_server(folder, *args, seed=seed, quiet=False)
    wrk = start_wrk(server, connections)
    parked = []
    try:
        assert wait_until(lambda: len(server.access_log()) >= answers_first), "the load was not served"
        parked = [send_raw(server, b"GET /api/items?_delay=10000 HTTP/1.1\r\nHost: localhost\r\n"
                                   b"Connection: close\r\n\r\n") for _ in range(delayed)]
        server.wait_until_read(*parked)
        began = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(timeout=STUCK_SECONDS)
        except subprocess.TimeoutExpired:
            code = f"still running after {STUCK_SECONDS} s"
        seconds = time.monotonic() - began
        statuses = [status_of(read_until_close(sock, STUCK_SECONDS)) for sock in parked]
    finally:
        output = stop_wrk(wrk)
        for sock in parked:
            sock.close()
        server.stop()
    text = server.stderr()
    stray = [line for line in text.splitlines() if line and not LOG_LINE.match(line)]
    return StopRound(code, seconds, statuses, stray, crash_markers(text), output)

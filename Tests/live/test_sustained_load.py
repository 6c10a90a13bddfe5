"""Sustained mixed load: no server thread stalls.

A server thread once stalled for seconds under this load (libmicrohttpd's epoll loop waited out
its timeout with exactly 128 connections ready, and posts synced the disk on the thread that
received them), so closed-loop clients saw read errors and multi-second answers."""
import shutil

import pytest

from pulldownkit.mixed_load import run_mixed
from pulldownkit.raw import healthy

needs_wrk = pytest.mark.skipif(not shutil.which("wrk"), reason="wrk is not installed (make deps-test installs it)")


@needs_wrk
def test_one_thread_with_exactly_128_connections_ready_keeps_serving(start_server):
    # One server thread, 128 closed-loop clients reading pages: all of them ready at once.
    server = start_server("--threads", "1", seed="100")
    summary = run_mixed(server, seconds=4, connections=128, threads=1, reads_only=True)
    assert summary["socket_errors"] == 0, summary
    assert summary["status_5xx"] == 0, summary
    assert summary["max_ms"] < 2000, summary
    # Stalled, it answers a few hundred in the first moments and nothing after.
    assert summary["requests"] > 4000, summary


@needs_wrk
def test_a_minute_of_mixed_load_at_256_connections_has_no_socket_error_and_no_answer_over_2_s(start_server):
    server = start_server(seed="1000")
    summary = run_mixed(server, seconds=60, connections=256)
    print(f"{summary['requests']} requests, p99 {summary['p99_ms']:.2f} ms, max {summary['max_ms']:.1f} ms")
    assert summary["socket_errors"] == 0, summary
    assert summary["status_5xx"] == 0 and summary["status_4xx"] == 0, summary
    assert summary["max_ms"] < 2000, summary
    assert healthy(server)

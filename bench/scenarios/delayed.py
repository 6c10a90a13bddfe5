"""5: 500 connections held by `--delay-ms 1000` answers, which hold no server thread: the rate
is what the delay allows, and /healthz stays fast meanwhile."""
import subprocess
import time

from load import parse_wrk, probe_latency
from report import floor, row
from servers import start_pulldown

CONNECTIONS = 500
DELAY_MS = 1000


def run(bench):
    server = start_pulldown(bench.tmp, ":memory:", "--delay-ms", str(DELAY_MS), seed=100)
    seconds = 10 if bench.quick else 20
    try:
        delayed = subprocess.Popen(
            ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "--timeout=5s",
             f"http://127.0.0.1:{server.port}/api/items"], stdout=subprocess.PIPE, text=True)
        time.sleep(1.5)  # let the delayed connections fill up
        health = probe_latency(server.port, "/healthz", seconds - 3)
        delayed_result = parse_wrk(delayed.communicate(timeout=seconds + 60)[0])
        rss = server.rss_mb()
    finally:
        server.stop()
    label = f"5 delayed ({CONNECTIONS} conns, {DELAY_MS} ms)"
    row(label, "GET /api/items", delayed_result, rss=rss)
    row(label, "GET /healthz probe (100/s)", health)
    floor("delayed timeouts", delayed_result.get("timeouts", 0), 0, "lower")
    # Runs last 10 s or more so that connecting 500 sockets and the first delay weigh little.
    ideal = CONNECTIONS * 1000 / DELAY_MS
    print(f"delayed: {delayed_result['requests']} answers in {seconds} s; {CONNECTIONS} connections / "
          f"{DELAY_MS} ms allow {ideal:.0f}/s")
    floor("delayed rps / (connections / delay)", delayed_result["rps"] / ideal, 0.9)
    floor("/healthz p99 during delays (ms)", health["p99"], 20, "lower")

"""The longer reliability suite (`make soak`; not part of `make test`).

1. Load: wrk with soak/mixed.lua (page reads, refreshes from many sessions, posts) at 256
   connections, 10 s of warm-up then 60 s: no socket error, no 5xx, p99 under 50 ms, no request
   over 1 s, and the server's RSS after the run within 10 % of its RSS after the warm-up.
2. 5,000 idle connections at once (more than --connection-limit's 4,000): the server stays up and
   a normal request is served once they drop.
3. Crash safety, several rounds: posts and refreshes at full speed, SIGKILL, restart; nothing
   acknowledged is lost and the integrity check passes.
4. SIGTERM under wrk load with delayed answers waiting, 100 times, each on a fresh process: exit 0
   within 2 s, every delayed client answered 503, nothing on stderr but the access log.

Prints the figures as it goes and a summary at the end; exits 1 if any check failed.
Options: --duration, --warmup, --connections, --idle, --crash-rounds, --stop-rounds.
"""
import argparse
import json
import pathlib
import resource
import socket
import sys
import tempfile
import time

from pulldownkit.crash import crash_round
from pulldownkit.mixed_load import run_mixed
from pulldownkit.raw import healthy
from pulldownkit.server import BINARY, start_server
from pulldownkit.stopping import sigterm_round
from pulldownkit.waiting import wait_until

FIGURES = {}
FAILURES = []


def check(condition, message):
    print(("  ok    " if condition else "  FAIL  ") + message, flush=True)
    if not condition:
        FAILURES.append(message)


def start(folder, *args, seed="1000"):
    return start_server(folder, *args, db=folder / "soak.sqlite", seed=seed)


def load(folder, warmup, duration, connections):
    print(f"\n== Load: wrk, soak/mixed.lua, {connections} connections, {warmup} s warm-up + {duration} s", flush=True)
    server = start(folder)
    try:
        warm = run_mixed(server, warmup, connections)
        rss_warm = server.rss_kib()
        main = run_mixed(server, duration, connections)
        rss_after = server.rss_kib()
        socket_errors = main["socket_errors"]
        growth = (rss_after - rss_warm) / rss_warm * 100
        FIGURES["load"] = {"warmup": warm, "run": main, "rss_after_warmup_kib": rss_warm,
                           "rss_after_run_kib": rss_after, "rss_growth_percent": round(growth, 2)}
        print(f"  {main['requests']} requests in {main['seconds']:.1f} s = {main['requests'] / main['seconds']:.0f} req/s; "
              f"posts {main['posts']}, refreshes {main['refreshes']}, reads {main['reads']}; "
              f"p50 {main['p50_ms']:.2f} ms, p99 {main['p99_ms']:.2f} ms, max {main['max_ms']:.1f} ms", flush=True)
        print(f"  statuses: 2xx {main['status_2xx']}, 3xx {main['status_3xx']}, 4xx {main['status_4xx']}, "
              f"5xx {main['status_5xx']}; socket errors {socket_errors}", flush=True)
        print(f"  RSS after warm-up {rss_warm} KiB, after the run {rss_after} KiB ({growth:+.1f} %)", flush=True)
        check(socket_errors == 0, f"zero socket errors (connect/read/write/timeout: {socket_errors})")
        check(main["p99_ms"] < 50, f"p99 under 50 ms ({main['p99_ms']:.2f} ms)")
        check(main["max_ms"] < 1000, f"no request over 1 s (slowest {main['max_ms']:.1f} ms)")
        check(main["status_5xx"] == 0 and warm["status_5xx"] == 0, "zero 5xx")
        check(main["status_4xx"] == 0, f"zero 4xx for valid traffic ({main['status_4xx']})")
        check(abs(growth) <= 10, f"RSS within 10 % of the warm-up figure ({growth:+.1f} %)")
        check(healthy(server), "healthy after the run")
        check(not server.crashes(), "no crash output")
    finally:
        check(server.stop() == 0, "clean stop after the load")


def idle_connections(folder, count):
    print(f"\n== {count} idle connections at once (connection limit 4000)", flush=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 1000
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted, hard))
    server = start(folder, "--connection-timeout", "15", seed="50")
    sockets = []
    try:
        started = time.monotonic()
        for _ in range(count):
            try:
                sockets.append(socket.create_connection((server.host, server.port), timeout=10))
            except OSError as error:
                print(f"  stopped opening at {len(sockets)}: {error}")
                break
        opened_in = time.monotonic() - started
        # Held: the server has accepted every one of them (it holds their sockets).
        held = wait_until(lambda: len(server.unread_bytes()) >= len(sockets), timeout=30, interval=0.5)
        alive = server.process.poll() is None
        print(f"  opened {len(sockets)} in {opened_in:.2f} s; server alive: {alive}", flush=True)
        check(len(sockets) == count, f"{count} connections opened")
        check(bool(held), "every one accepted and held")
        check(alive, "server up while they are held")
    finally:
        for sock in sockets:
            sock.close()
    dropped = time.monotonic()
    served = wait_until(lambda: healthy(server, timeout=2), timeout=20, interval=0.1)
    FIGURES["idle"] = {"opened": len(sockets), "served_after_drop_s": round(time.monotonic() - dropped, 3)}
    print(f"  normal request served {FIGURES['idle']['served_after_drop_s']} s after they dropped", flush=True)
    check(served, "a normal request is served once they drop")
    check(not server.crashes(), "no crash output")
    check(server.stop() == 0, "clean stop")


def crash_rounds(folder, rounds):
    print(f"\n== Crash safety: {rounds} rounds of posting and refreshing at full speed, then SIGKILL", flush=True)
    db = folder / "crash.sqlite"
    totals = []
    for number in range(rounds):
        try:
            items, refreshes = crash_round(folder, db, seconds=3.0, posters=6, refreshers=3)
            totals.append((items, refreshes))
            print(f"  round {number + 1}: {items} acknowledged posts and {refreshes} refreshes all present; "
                  f"integrity_check ok", flush=True)
        except AssertionError as error:
            check(False, f"round {number + 1}: {error}")
    FIGURES["crash"] = {"rounds": rounds, "acknowledged": totals}
    check(len(totals) == rounds, f"{rounds} rounds lost nothing")


def stop_under_load(folder, rounds, connections):
    print(f"\n== SIGTERM under load ({connections} connections) with 32 delayed answers waiting, {rounds} times",
          flush=True)
    times, failed = [], []
    for number in range(rounds):
        round_folder = folder / f"round-{number + 1}"
        round_folder.mkdir()
        result = sigterm_round(round_folder, connections=connections, delayed=32)
        times.append(round(result.seconds, 3))
        clean = (result.code == 0 and result.seconds < 2.0 and not result.crashes and not result.stray_stderr
                 and result.delayed_statuses == [503] * 32)
        if not clean:
            failed.append(number + 1)
            print(f"  round {number + 1}: exit {result.code} after {result.seconds:.3f} s; delayed answers "
                  f"{sorted(set(map(str, result.delayed_statuses)))}; stderr {result.stray_stderr[-5:]}", flush=True)
        elif (number + 1) % 10 == 0:
            print(f"  {number + 1} rounds done, slowest stop so far {max(times):.3f} s", flush=True)
    FIGURES["sigterm_seconds"] = {"rounds": rounds, "max": max(times, default=None),
                                  "median": sorted(times)[len(times) // 2] if times else None}
    check(not failed, f"{rounds} rounds: each exits 0 within 2 s, answers every delayed client 503, "
                      f"and writes nothing but the access log to stderr (failed: {failed})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--crash-rounds", type=int, default=5)
    parser.add_argument("--stop-rounds", type=int, default=100)
    options = parser.parse_args()
    print(f"pulldown binary: {BINARY}", flush=True)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pulldown-soak-") as temporary:
        folder = pathlib.Path(temporary)
        for name, step in [("load", lambda d: load(d, options.warmup, options.duration, options.connections)),
                           ("idle", lambda d: idle_connections(d, options.idle)),
                           ("crash", lambda d: crash_rounds(d, options.crash_rounds)),
                           ("stop", lambda d: stop_under_load(d, options.stop_rounds, options.connections))]:
            step_folder = folder / name
            step_folder.mkdir()
            try:
                step(step_folder)
            except Exception as error:  # a step that blows up is a failure, the others still run
                check(False, f"{name}: {type(error).__name__}: {error}")
    print(f"\n== Summary ({time.monotonic() - began:.0f} s)")
    print(json.dumps(FIGURES, indent=2))
    if FAILURES:
        print(f"\n{len(FAILURES)} check(s) failed:")
        for failure in FAILURES:
            print(f"  - {failure}")
        return 1
    print("\nEvery check passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

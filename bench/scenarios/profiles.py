"""13: a thousand throttled clients cost the others nothing measurable (bench.py --only profiles).

One session is on the `3g` network profile (latency 400 ms, jitter 100 ms, 50,000 bytes/s), and
1,000 connections of it fetch `/api/items?limit=100` (29 KB) over and over (wrk, niced, as the
live scenario's subscribers are): each answer waits for its latency, then arrives in slices, so
at any moment about a thousand answers are held, none on a server thread. Unthrottled clients
(wrk -t2 -c64, no session) measure the newest page alone and with those thousand open, in
alternating order; the ratio of the two is the cost.

On a shared two-core box the ratio moves by 10 % from run to run, so the server's own CPU time
is measured too, with nothing but the thousand running: on 3g, and the same thousand asking
the same pages at the same rate without a profile (held by the `_delay` knob instead, so
answered in one piece). Loopback only; every load stops by itself.
"""
import subprocess
import time

from load import median_runs, parse_wrk, wrk
from pulldownkit.client import call
from report import floor, row
from servers import start_pulldown

THROTTLED = 1_000
CPU_SECONDS = 5


def run(bench):
    server = start_pulldown(bench.tmp, ":memory:", seed=1_000)
    base = f"http://127.0.0.1:{server.port}"
    newest = f"{base}/api/items?limit=20"
    try:
        session = call(server, "GET", "/api/session").header("X-Session-Id")
        reply = call(server, "PUT", "/api/demo/profile", json={"preset": "3g"}, headers={"X-Session-Id": session})
        assert reply.status == 200, reply

        def thousand(seconds, query="", on_3g=True):
            """The thousand connections for `seconds`, started; wait for them to connect."""
            headers = ["-H", f"X-Session-Id: {session}"] if on_3g else []
            load = subprocess.Popen(
                ["nice", "-n", "10", "wrk", "-t1", f"-c{THROTTLED}", f"-d{seconds}s", "--latency", "--timeout=10s",
                 *headers, f"{base}/api/items?limit=100{query}"], stdout=subprocess.PIPE, text=True)
            time.sleep(2)  # let the thousand connect and their first answers start
            return load

        def finished(load):
            return parse_wrk(load.communicate(timeout=120)[0])

        alone, together, throttled = [], [], []
        for index in range(bench.rounds):
            # Alternating which goes first, so a drift of the machine weighs on both alike.
            for with_them in ([True, False] if index % 2 else [False, True]):
                if with_them:
                    load = thousand(bench.seconds + 4)
                    together.append(wrk(newest, bench.seconds))
                    throttled.append(finished(load))
                else:
                    alone.append(wrk(newest, bench.seconds))

        def cpu(query="", on_3g=True):
            """The server's CPU seconds per second while only the thousand run; their figures."""
            load = thousand(CPU_SECONDS + 4, query, on_3g)
            before = server.cpu_seconds()
            time.sleep(CPU_SECONDS)
            used = (server.cpu_seconds() - before) / CPU_SECONDS
            return used, finished(load)

        paced_cpu, paced = cpu()
        rss = server.rss_mb()
        # The same rate of the same pages, held as long by the knob and sent in one piece.
        knob_cpu, knob = cpu(f"&_delay={round(paced['p50'])}", on_3g=False)
    finally:
        server.stop()
    alone, together, slow = median_runs(alone), median_runs(together), median_runs(throttled)
    label = f"13 profiles ({THROTTLED:,} on 3g)"
    row(label, "newest page, alone", alone)
    row(label, f"newest page, {THROTTLED:,} throttled open", together, baseline=alone)
    row(label, "the throttled: limit=100 on 3g", slow, rss=rss)
    print(f"profiles: newest page {together['rps'] / alone['rps']:.2f}x the req/s and "
          f"{together['p50'] / alone['p50']:.2f}x the p50 with {THROTTLED:,} throttled connections open; "
          f"the throttled answered {slow['rps']:.0f}/s, p50 {slow['p50']:.0f} ms")
    print(f"   server CPU with only the thousand running: {paced_cpu * 100:.1f} % of a core on 3g "
          f"({paced['rps']:.0f} answers/s), {knob_cpu * 100:.1f} % for the same pages held by _delay "
          f"and sent whole ({knob['rps']:.0f}/s)")
    floor("newest page rps with 1,000 throttled / alone", together["rps"] / alone["rps"], 0.85)
    # The throttled really were: each waited its latency (400 ms at least) and its bandwidth.
    floor("throttled p50 (ms)", slow["p50"], 400)
    floor("server CPU for 1,000 on 3g (% of a core)", paced_cpu * 100, 25, "lower")

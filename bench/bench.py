#!/usr/bin/env python3
"""Pulldown's benchmark: each scenario runs against Pulldown and a baseline in the same run.

Servers are started and stopped by PID; every load goes to loopback only and stops by itself.
Figures are medians of alternating runs; what matters is the ratio to the baseline. The
scenarios are in bench/scenarios/, one module each; the servers (and nginx on the same bytes)
in servers.py, wrk and the probes in load.py, the table and floors in report.py.

    make bench            # full run
    make bench ARGS=--quick   # under two minutes
    make bench ARGS="--only static,live"
"""
import argparse
import sys
import tempfile
import time
import traceback

from report import print_report
from scenarios import ALL
from servers import BUNDLE, CORES, RELEASE, Bench


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer, shorter runs (under two minutes)")
    parser.add_argument("--only", default="", help=f"comma-separated scenarios to run ({','.join(ALL)}); all when empty")
    args = parser.parse_args()
    wanted = set(filter(None, args.only.split(","))) or set(ALL)
    unknown = wanted - set(ALL)
    if unknown:
        sys.exit(f"unknown scenario {', '.join(sorted(unknown))}; there are {', '.join(ALL)}")

    if not RELEASE.exists():
        sys.exit(f"no release binary at {RELEASE}: run `swift build -c release` (make bench does)")
    if not (BUNDLE / "index.html").exists():
        sys.exit(f"no bundled page in {BUNDLE}: run scripts/build-public.sh (make bench does)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pulldown-bench-") as tmp:
        bench = Bench(tmp, args.quick)
        print(f"Pulldown benchmark ({'quick' if args.quick else 'full'}): {bench.rounds} alternating rounds "
              f"of {bench.seconds} s per subject, wrk -t2 -c64, {CORES} cores\n")
        failed = []
        for name, scenario in ALL.items():
            if name in wanted:
                # One broken scenario must not lose the figures of the others: report it and go on.
                try:
                    scenario.run(bench)
                except Exception:
                    traceback.print_exc()
                    failed.append(name)
    print()
    print_report()
    print(f"finished in {time.monotonic() - started:.0f} s")
    if failed:
        sys.exit(f"scenarios that failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()

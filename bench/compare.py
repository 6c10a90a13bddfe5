#!/usr/bin/env python3
"""Two builds of Pulldown against each other on the wall clock, alternating.

`make bench` compares Pulldown with nginx; this compares a build with the one before it, the
way a change that should cost nothing is checked: both run at once, each on a store it seeded
with the same 100,000 items, and wrk (2 threads, 64 connections, loopback) alternates between them, round after round,
on the newest page, on `/` (gzip) and on `POST /api/refresh` (1,000 sessions each). Prints
medians and the ratio new / old.

    make compare ARGS="old/pulldown .build/release/pulldown"
    make compare ARGS="old/pulldown .build/release/pulldown --rounds 5 --seconds 5"
"""
import argparse
import pathlib
import tempfile

from load import alternate, issue_sessions, refresh_script
from pulldownkit.server import start_server
from servers import BUNDLE

PATHS = {"newest page": ("/api/items?limit=20", ()), "/ (gzip)": ("/", ("Accept-Encoding: gzip",))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=pathlib.Path)
    parser.add_argument("new", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pulldown-compare-") as tmp:
        folder = pathlib.Path(tmp)
        servers = {}
        for name, binary in (("old", args.old), ("new", args.new)):
            # Each build seeds its own store: the seed is deterministic, so both serve the same
            # items, and an older build need not read a newer build's schema.
            servers[name] = start_server(folder, db=folder / f"{name}.sqlite", seed=100_000, binary=str(binary),
                                         public=BUNDLE)
        try:
            print(f"{args.rounds} alternating rounds of {args.seconds} s per build, wrk -t2 -c64\n")
            print(f"{'request':<13} {'build':<6} {'req/s':>9} {'p50 ms':>7} {'p99 ms':>7}")
            comparisons = {label: [(name, server.url + path, {"headers": headers}) for name, server in servers.items()]
                           for label, (path, headers) in PATHS.items()}
            # A session belongs to the server that issued it, so each build refreshes its own.
            comparisons["refresh"] = [(name, server.url + "/api/refresh",
                                       {"script": refresh_script(folder, issue_sessions(server.port, 1000), f"{name}.lua")})
                                      for name, server in servers.items()]
            for label, targets in comparisons.items():
                medians = alternate(targets, args.rounds, args.seconds)
                for name in servers:
                    figures = medians[name]
                    print(f"{label:<13} {name:<6} {figures['rps']:>9,.0f} {figures['p50']:>7.2f} {figures['p99']:>7.2f}"
                          + ("  errors!" if figures["errors"] else ""))
                print(f"{'':<13} new/old {medians['new']['rps'] / medians['old']['rps']:.2f}x req/s\n")
        finally:
            for server in servers.values():
                server.stop()


if __name__ == "__main__":
    main()

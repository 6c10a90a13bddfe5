"""The user-space instructions one request costs, counted by callgrind.

wrk's figures on this box move by 10% and more from run to run, so a change worth 5% cannot be
seen with them. An instruction count moves by a fraction of a percent (a timer firing during the
count), so two builds can be compared closely: this script runs each build given under callgrind,
sends each kind of request `--count` times over one keep-alive connection (after a warm-up, with
counting switched on only around them) and prints the instructions per request. It counts the
server's own code and its libraries, not the kernel, and not time: `make bench` measures speed.

libmicrohttpd zeroes each connection's memory pool on every request with `rep stosb`, which
callgrind counts one byte at a time; that part is printed apart, as "pool zeroing".

    make instructions                                    # the release build
    make instructions ARGS="old/pulldown .build/release/pulldown --count 500"
"""
import argparse
import http.client
import pathlib
import re
import subprocess
import tempfile

from pulldownkit.client import call
from pulldownkit.server import Server

REPO = pathlib.Path(__file__).resolve().parent.parent
RELEASE = REPO / ".build" / "release" / "pulldown"
BUNDLE = REPO / ".build" / "public"

# Each request: method, path, body, and its headers given a session id.
REQUESTS = {
    "/ (gzip)": ("GET", "/", None, lambda session: {"Accept-Encoding": "gzip"}),
    "newest page": ("GET", "/api/items?limit=20", None, lambda session: {}),
    # One request at a time: every refresh is a group commit of its own.
    "refresh": ("POST", "/api/refresh", b"{}",
                lambda session: {"X-Session-Id": session, "Content-Type": "application/json"}),
}
WARM_UP = 200
SESSIONS = 50


def count(binary, folder, requests, n):
    """{request name: (instructions per request, of which pool zeroing)} for `binary`."""
    out = folder / f"callgrind.{binary.stat().st_ino}.out"
    server = Server(["--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                     f"--log-file={folder / 'valgrind.log'}", str(binary),
                     "--port", "0", "--db", str(folder / f"{binary.stat().st_ino}.sqlite"), "--seed", "500",
                     "--new-items-every", "0", "--public", str(BUNDLE), "--quiet"],
                    cwd=folder, binary="valgrind").start()
    results = {}
    try:
        ids = [call(server, "GET", "/api/session").header("X-Session-Id") for _ in range(SESSIONS)]
        connection = http.client.HTTPConnection(server.host, server.port, timeout=120)
        for name in requests:
            method, path, body, headers = REQUESTS[name]

            def send(k):
                connection.request(method, path, body=body, headers=headers(ids[k % len(ids)]))
                response = connection.getresponse()
                answer = response.read()
                if response.status != 200:
                    raise SystemExit(f"{name}: status {response.status}: {answer[:200]!r}")

            for k in range(WARM_UP):
                send(k)
            control(server, "--zero")
            control(server, "--instr=on")
            for k in range(n):
                send(k)
            control(server, "--instr=off")
            control(server, "--dump")
            total, zeroing = totals(out)
            results[name] = (total / n, zeroing / n)
            for part in folder.glob(f"{out.name}.*"):
                part.unlink()
        connection.close()
    finally:
        server.stop()
    return results


def control(server, command):
    subprocess.run(["callgrind_control", command, str(server.process.pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def totals(out):
    """The dumps' instructions, and those of memset (the pool zeroing). Each `--dump` writes a
    numbered file; `out` itself is written only when the process exits."""
    total = zeroing = 0
    for part in sorted(out.parent.glob(f"{out.name}.*")):
        run = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(part)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"callgrind_annotate {part}: {run.stderr or run.stdout}; files: {sorted(p.name for p in out.parent.iterdir())}")
        report = run.stdout
        for line in report.splitlines():
            match = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)", line)
            if not match:
                continue
            value = int(match.group(1).replace(",", ""))
            if "PROGRAM TOTALS" in match.group(2):
                total += value
            elif "memset" in match.group(2):
                zeroing += value
    return total, zeroing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="*", type=pathlib.Path, default=[RELEASE])
    parser.add_argument("--count", type=int, default=2000, help="requests counted for each kind (default 2000)")
    parser.add_argument("--only", default=",".join(REQUESTS), help=f"some of: {', '.join(REQUESTS)}")
    args = parser.parse_args()
    requests = [name.strip() for name in args.only.split(",")]
    unknown = [name for name in requests if name not in REQUESTS]
    if unknown:
        parser.error(f"unknown request {unknown[0]!r}; known: {', '.join(REQUESTS)}")
    missing = [str(binary) for binary in args.binaries if not binary.is_file()]
    if missing:
        parser.error(f"no such binary: {missing[0]}")
    with tempfile.TemporaryDirectory(prefix="pulldown-instructions-") as tmp:
        rows = {binary: count(binary.resolve(), pathlib.Path(tmp), requests, args.count) for binary in args.binaries}
    print(f"instructions per request, user space, {args.count} requests each (callgrind):")
    for name in requests:
        for binary, results in rows.items():
            per_request, zeroing = results[name]
            print(f"  {name:<12} {str(binary):<40} {per_request:>9,.0f}"
                  f"  ({per_request - zeroing:,.0f} without {zeroing:,.0f} of pool zeroing)")


if __name__ == "__main__":
    main()

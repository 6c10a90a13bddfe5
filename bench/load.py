"""Load on loopback: wrk runs and their figures, a light probe beside them, and the sessions
and script a refresh load needs. Every run stops by itself."""
import http.client
import pathlib
import re
import statistics
import subprocess
import time


def wrk(url, seconds, connections=64, threads=2, script=None, headers=(), timeout="5s"):
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", f"--timeout={timeout}"]
    for header in headers:
        args += ["-H", header]
    if script:
        args += ["-s", str(script)]
    out = subprocess.run(args + [url], capture_output=True, text=True, timeout=seconds + 60).stdout
    return parse_wrk(out)


def to_ms(text):
    """wrk's latency text (`812.00us`, `1.20ms`, `2.01s`, `1.05m`) in milliseconds; nan if unreadable."""
    match = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    if not match:
        return float("nan")
    number, unit = match.groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def parse_wrk(out):
    if "Requests/sec" not in out:
        raise RuntimeError(f"wrk printed no result:\n{out}")
    result = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
              "p50": to_ms(re.search(r"50%\s+(\S+)", out).group(1)),
              "p99": to_ms(re.search(r"99%\s+(\S+)", out).group(1)),
              "requests": int(re.search(r"(\d+) requests in", out).group(1)),
              "errors": 0, "non2xx": 0}
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket_errors:
        result["errors"] = sum(int(n) for n in socket_errors.groups())
        result["timeouts"] = int(socket_errors.group(4))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        result["non2xx"] = int(non2xx.group(1))
    return result


def median_runs(runs):
    keys = ["rps", "p50", "p99"]
    # A latency wrk printed unreadably is left out rather than poisoning the median.
    merged = {k: statistics.median([r[k] for r in runs if r[k] == r[k]] or [float("nan")]) for k in keys}
    merged["errors"] = sum(r["errors"] + r["non2xx"] for r in runs)
    merged["requests"] = sum(r["requests"] for r in runs)
    return merged


def alternate(targets, rounds, seconds, **kwargs):
    """Runs wrk against each (name, url, extra) in turn, `rounds` times; returns medians per name."""
    runs = {name: [] for name, _, _ in targets}
    for _ in range(rounds):
        for name, url, extra in targets:
            runs[name].append(wrk(url, seconds, **{**kwargs, **extra}))
    return {name: median_runs(r) for name, r in runs.items()}


def wrk_together(urls, seconds, script=None):
    """wrk against several servers at once (32 connections each); returns summed rps and the worst p99."""
    processes = []
    for url in urls:
        args = ["wrk", "-t1", "-c32", f"-d{seconds}s", "--latency", "--timeout=5s"]
        if script:
            args += ["-s", str(script)]
        processes.append(subprocess.Popen(args + [url], stdout=subprocess.PIPE, text=True))
    results = [parse_wrk(p.communicate(timeout=seconds + 60)[0]) for p in processes]
    return {"rps": sum(r["rps"] for r in results), "p50": max(r["p50"] for r in results),
            "p99": max(r["p99"] for r in results), "errors": sum(r["errors"] for r in results),
            "non2xx": sum(r["non2xx"] for r in results), "requests": sum(r["requests"] for r in results)}


def probe_latency(port, path, seconds, interval=0.01):
    """A light second client: one request every `interval` on one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    latencies = []
    errors = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            errors += response.status != 200
        except OSError:
            errors += 1
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(interval)
    latencies.sort()
    return {"rps": len(latencies) / seconds, "p50": latencies[len(latencies) // 2],
            "p99": latencies[int(len(latencies) * 0.99)], "errors": errors, "requests": len(latencies)}


def issue_sessions(port, count):
    """Session ids the server issued, collected over one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    tokens = []
    for _ in range(count):
        connection.request("GET", "/api/session")
        response = connection.getresponse()
        response.read()
        tokens.append(response.getheader("X-Session-Id"))
    return tokens


def refresh_script(tmp, tokens, name="refresh.lua"):
    """A wrk script that refreshes as `tokens`' sessions, each wrk thread from its own offset.

    Each thread formats its requests once, in `init`: formatting one per request would cost wrk
    more CPU than the plain GET it is compared with, and wrk shares the cores with the server."""
    script = pathlib.Path(tmp) / name
    script.write_text(
        "local ids = {" + ",".join(f'"{t}"' for t in tokens) + "}\n"
        "local requests = {}\n"
        "-- Global, not local: setup() gives each thread its own starting point through it.\n"
        "counter = 0\n"
        "local thread_number = 0\n"
        "setup = function(thread)\n"
        f"  thread:set('counter', thread_number * {max(1, len(tokens) // 2)})\n"
        "  thread_number = thread_number + 1\n"
        "end\n"
        "init = function(args)\n"
        "  for i, id in ipairs(ids) do\n"
        "    requests[i] = wrk.format('POST', '/api/refresh', {['X-Session-Id'] = id, ['Content-Type'] = 'application/json'}, '{}')\n"
        "  end\n"
        "end\n"
        "request = function()\n"
        "  counter = counter + 1\n"
        "  return requests[(counter % #requests) + 1]\n"
        "end\n")
    return script


def first_answers(port, path, context, count):
    """`count` requests to `path`, each on a new TLS connection (connect, a full handshake, the
    answer read whole): the milliseconds each took until its answer was in."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=context)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {path} answered {response.status}")
        finally:
            connection.close()
        times.append((time.perf_counter() - started) * 1000)
    return times

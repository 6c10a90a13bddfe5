#!/usr/bin/env python3
"""Pulldown's benchmark: each scenario runs against Pulldown and a baseline in the same run.

Servers are started and stopped by PID; every load goes to loopback only and stops by itself.
Figures are medians of alternating runs; what matters is the ratio to the baseline.

    make bench            # full run
    make bench ARGS=--quick   # under two minutes
"""
import argparse
import gzip
import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = REPO / ".build" / "release" / "pulldown"
CORES = os.cpu_count() or 2


# ---------------------------------------------------------------- processes

class Process:
    """A server started in the background and stopped by its PID."""

    def __init__(self, args, cwd, wait_for_line=None, wait_for_port=None):
        self.proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.port = wait_for_port
        if wait_for_line:
            line = self.proc.stdout.readline().decode().strip()
            if not line.startswith(wait_for_line):
                self.stop()
                raise RuntimeError(f"{args[0]} did not start: {line!r}")
            self.port = int(line.rsplit(":", 1)[1])
        elif wait_for_port:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    http.client.HTTPConnection("127.0.0.1", wait_for_port, timeout=1).request("GET", "/")
                    break
                except OSError:
                    time.sleep(0.05)

    def rss_mb(self):
        for line in pathlib.Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def start_pulldown(tmp, db, *extra, seed=0):
    args = [str(BINARY), "--port", "0", "--quiet", "--db", str(db), "--seed", str(seed),
            "--new-items-every", "0", "--public", str(REPO / "Public"), *extra]
    return Process(args, cwd=tmp, wait_for_line="Listening on")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(tmp, files):
    """nginx with 2 workers, no sendfile, serving `files` ({path: (bytes, headers)}) from a temp root."""
    root = pathlib.Path(tmp) / "nginx"
    www = root / "www"
    www.mkdir(parents=True, exist_ok=True)
    locations = []
    for path, (body, content_type, encoding) in files.items():
        (www / path.lstrip("/")).write_bytes(body)
        extra = f"add_header Content-Encoding {encoding};" if encoding else ""
        locations.append(f"location = {path} {{ default_type {content_type}; types {{ }} {extra} }}")
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(f"""
user root;
worker_processes {CORES};
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  sendfile off;
  keepalive_requests 1000000;
  client_body_temp_path {root}/body;
  proxy_temp_path {root}/proxy;
  fastcgi_temp_path {root}/fastcgi;
  uwsgi_temp_path {root}/uwsgi;
  scgi_temp_path {root}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {www};
    {' '.join(locations)}
  }}
}}
""")
    return Process(["nginx", "-c", str(conf), "-p", str(root)], cwd=tmp, wait_for_port=port)


# ---------------------------------------------------------------- load

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


def fetch(port, path, headers=None, method="GET", body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


# ---------------------------------------------------------------- report

ROWS = []
FLOORS = []


def row(scenario, subject, figures, baseline=None, ratio_of="rps", rss=None):
    ratio = ""
    if baseline:
        ratio = f"{figures[ratio_of] / baseline[ratio_of]:.2f}x {ratio_of}"
    ROWS.append((scenario, subject, f"{figures['rps']:,.0f}", f"{figures['p50']:.2f}", f"{figures['p99']:.2f}",
                 str(figures["errors"]), ratio, f"{rss:.1f}" if rss else ""))


def floor(name, value, limit, better="higher", unit=""):
    ok = value >= limit if better == "higher" else value <= limit
    FLOORS.append((name, f"{value:.2f}{unit}", f"{'>=' if better == 'higher' else '<='} {limit}{unit}",
                   "ok" if ok else "BELOW FLOOR"))


def print_table(headers, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    print()


# ---------------------------------------------------------------- scenarios

def seed_store(tmp, count):
    """Creates a store of `count` items once; returns its path and how long seeding took."""
    db = pathlib.Path(tmp) / f"seed-{count}.sqlite"
    started = time.monotonic()
    server = start_pulldown(tmp, db, seed=count)
    elapsed = time.monotonic() - started
    server.stop()
    return db, elapsed


def copy_store(tmp, source, name):
    target = pathlib.Path(tmp) / name
    connection = sqlite3.connect(source)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    shutil.copy(source, target)
    return target


def scenario_newest(tmp, args, db100k):
    server = start_pulldown(tmp, copy_store(tmp, db100k, "newest.sqlite"))
    _, _, body = fetch(server.port, "/api/items?limit=20")
    nginx = start_nginx(tmp, {"/items.json": (body, "application/json", None)})
    try:
        results = alternate([("pulldown", f"http://127.0.0.1:{server.port}/api/items?limit=20", {}),
                             ("nginx", f"http://127.0.0.1:{nginx.port}/items.json", {})],
                            args.rounds, args.seconds)
        rss = server.rss_mb()
    finally:
        server.stop()
        nginx.stop()
    row("1 newest page (100k)", "nginx", results["nginx"])
    row("1 newest page (100k)", "pulldown", results["pulldown"], results["nginx"], rss=rss)
    floor("newest page rps / nginx", results["pulldown"]["rps"] / results["nginx"]["rps"], 0.8)
    floor("newest page p99 / nginx p99", results["pulldown"]["p99"] / results["nginx"]["p99"], 2.0, "lower")
    return results


def scenario_deep(tmp, args, db1m):
    """Keyset paging: a page near the oldest end costs what the same query costs at the newest end.

    The newest page itself is answered from memory, so it is shown for reference; the floor
    compares the deep page with `before=<newest id + 1>`, the same rows as the newest page
    read through the same query.
    """
    server = start_pulldown(tmp, copy_store(tmp, db1m, "deep.sqlite"))
    try:
        newest_id = json.loads(fetch(server.port, "/api/items?limit=1")[2])["items"][0]["id"]
        base = f"http://127.0.0.1:{server.port}/api/items?limit=20"
        results = alternate([("newest", base, {}),
                             ("newest-query", f"{base}&before={newest_id + 1}", {}),
                             ("deep", f"{base}&before=200", {})],
                            args.rounds, args.seconds)
        rss = server.rss_mb()
    finally:
        server.stop()
    row("2 deep page (1M)", "newest page (from memory)", results["newest"])
    row("2 deep page (1M)", f"before={newest_id + 1} (newest, queried)", results["newest-query"])
    row("2 deep page (1M)", "before=200 (oldest end)", results["deep"], results["newest-query"], ratio_of="p50", rss=rss)
    floor("deep page p50 / same query at the newest end", results["deep"]["p50"] / results["newest-query"]["p50"], 1.2, "lower")


def scenario_refresh(tmp, args, db1m, sessions=10_000):
    db = copy_store(tmp, db1m, "refresh.sqlite")
    server = start_pulldown(tmp, db)
    try:
        # Session ids must be ones the server issued.
        script = refresh_script(tmp, issue_sessions(server.port, sessions))
        results = alternate([("refresh", f"http://127.0.0.1:{server.port}/api/refresh", {"script": script}),
                             ("newest", f"http://127.0.0.1:{server.port}/api/items?limit=20", {})],
                            args.rounds, args.seconds)
        rss = server.rss_mb()
    finally:
        server.stop()
    stored = sqlite3.connect(db).execute("SELECT count(*), coalesce(sum(refresh_count), 0) FROM sessions").fetchone()
    row("3 refresh (10k sessions)", "newest page", results["newest"])
    row("3 refresh (10k sessions)", "POST /api/refresh", results["refresh"], results["newest"], rss=rss)
    floor("refresh rps / newest rps", results["refresh"]["rps"] / results["newest"]["rps"], 0.3)
    answered = results["refresh"]["requests"]
    print(f"refresh: {answered} refreshes answered by wrk (all rounds), {stored[1]} counted in the store "
          f"across {stored[0]} sessions")
    floor("refreshes persisted / answered", stored[1] / max(1, answered), 1.0)
    floor("RSS with 1M items and 10k sessions (MB)", rss, 64, "lower")


def scenario_static(tmp, args):
    server = start_pulldown(tmp, ":memory:")
    _, headers, body = fetch(server.port, "/", {"Accept-Encoding": "gzip"})
    assert headers.get("Content-Encoding") == "gzip"
    nginx = start_nginx(tmp, {"/index.html": (body, "text/html", "gzip")})
    try:
        results = alternate([("pulldown", f"http://127.0.0.1:{server.port}/", {}),
                             ("nginx", f"http://127.0.0.1:{nginx.port}/index.html", {})],
                            args.rounds, args.seconds, headers=["Accept-Encoding: gzip"])
        rss = server.rss_mb()
    finally:
        server.stop()
        nginx.stop()
    row("4 static / (gzip)", "nginx", results["nginx"])
    row("4 static / (gzip)", "pulldown", results["pulldown"], results["nginx"], rss=rss)
    floor("static rps / nginx", results["pulldown"]["rps"] / results["nginx"]["rps"], 0.8)


def scenario_delayed(tmp, args, connections=500, delay_ms=1000):
    server = start_pulldown(tmp, ":memory:", "--delay-ms", str(delay_ms), seed=100)
    seconds = 10 if args.quick else 20
    try:
        delayed = subprocess.Popen(
            ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout=5s",
             f"http://127.0.0.1:{server.port}/api/items"], stdout=subprocess.PIPE, text=True)
        time.sleep(1.5)  # let the delayed connections fill up
        health = probe_latency(server.port, "/healthz", seconds - 3)
        delayed_result = parse_wrk(delayed.communicate(timeout=seconds + 60)[0])
        rss = server.rss_mb()
    finally:
        server.stop()
    row(f"5 delayed ({connections} conns, {delay_ms} ms)", "GET /api/items", delayed_result, rss=rss)
    row(f"5 delayed ({connections} conns, {delay_ms} ms)", "GET /healthz probe (100/s)", health)
    floor("delayed timeouts", delayed_result.get("timeouts", 0), 0, "lower")
    # Runs last 10 s or more so that connecting 500 sockets and the first delay weigh little.
    ideal = connections * 1000 / delay_ms
    print(f"delayed: {delayed_result['requests']} answers in {seconds} s; {connections} connections / "
          f"{delay_ms} ms allow {ideal:.0f}/s")
    floor("delayed rps / (connections / delay)", delayed_result["rps"] / ideal, 0.9)
    floor("/healthz p99 during delays (ms)", health["p99"], 20, "lower")


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
    """A wrk script that refreshes as `tokens`' sessions, each wrk thread from its own offset."""
    script = pathlib.Path(tmp) / name
    script.write_text(
        "local ids = {" + ",".join(f'"{t}"' for t in tokens) + "}\n"
        "local counter = 0\n"
        "local thread_number = 0\n"
        "setup = function(thread)\n"
        f"  thread:set('counter', thread_number * {max(1, len(tokens) // 2)})\n"
        "  thread_number = thread_number + 1\n"
        "end\n"
        "request = function()\n"
        "  counter = counter + 1\n"
        "  local id = ids[(counter % #ids) + 1]\n"
        "  return wrk.format('POST', '/api/refresh', {['X-Session-Id'] = id, ['Content-Type'] = 'application/json'}, '{}')\n"
        "end\n")
    return script


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


def scenario_postgres(tmp, args, items=10_000, sessions=2_000):
    """Two instances on one PostgreSQL database against one instance on SQLite, same data."""
    started = subprocess.run([str(REPO / "scripts" / "postgres.sh"), "start"], capture_output=True, text=True)
    if started.returncode != 0:
        print(f"postgres scenario skipped: no throwaway cluster ({started.stderr.strip()[:200]})")
        return
    env = dict(line.removeprefix("export ").split("=", 1) for line in started.stdout.splitlines()
               if line.startswith("export "))
    url, cluster = env["PULLDOWN_TEST_POSTGRES_URL"], env["PULLDOWN_TEST_POSTGRES_DIR"]
    servers = []
    try:
        sqlite = start_pulldown(tmp, pathlib.Path(tmp) / "pg-baseline.sqlite", seed=items)
        servers.append(sqlite)
        first = start_pulldown(tmp, url, seed=items)
        second = start_pulldown(tmp, url)
        servers += [first, second]
        page = "/api/items?limit=20"
        single, both = [], []
        rounds = 1 if args.quick else args.rounds  # keeps --quick under two minutes
        for _ in range(rounds):
            single.append(wrk_together([f"http://127.0.0.1:{sqlite.port}{page}"] * 2, args.seconds))
            both.append(wrk_together([f"http://127.0.0.1:{s.port}{page}" for s in (first, second)], args.seconds))
        sqlite_script = refresh_script(tmp, issue_sessions(sqlite.port, sessions), "pg-sqlite.lua")
        shared_script = refresh_script(tmp, issue_sessions(first.port, sessions), "pg-shared.lua")
        single_refresh, both_refresh = [], []
        for _ in range(rounds):
            single_refresh.append(wrk_together([f"http://127.0.0.1:{sqlite.port}/api/refresh"] * 2, args.seconds,
                                               sqlite_script))
            both_refresh.append(wrk_together([f"http://127.0.0.1:{s.port}/api/refresh" for s in (first, second)],
                                             args.seconds, shared_script))
    finally:
        for server in servers:
            server.stop()
        subprocess.run([str(REPO / "scripts" / "postgres.sh"), "stop", cluster], capture_output=True)
    label = f"6 PostgreSQL, 2 instances ({items // 1000}k)"
    newest_single, newest_both = median_runs(single), median_runs(both)
    refresh_single, refresh_both = median_runs(single_refresh), median_runs(both_refresh)
    row(label, "newest page, 1 SQLite", newest_single)
    row(label, "newest page, 2 on PostgreSQL", newest_both, newest_single)
    row(label, "refresh, 1 SQLite", refresh_single)
    row(label, "refresh, 2 on PostgreSQL", refresh_both, refresh_single)


def page_weight(tmp):
    server = start_pulldown(tmp, ":memory:")
    try:
        _, _, html = fetch(server.port, "/")
        paths = ["/"] + re.findall(r'(?:href|src)="(/[^"]+\.(?:js|css))"', html.decode())
        raw = gz = 0
        for path in dict.fromkeys(paths):
            _, _, plain = fetch(server.port, path)
            _, headers, compressed = fetch(server.port, path, {"Accept-Encoding": "gzip"})
            raw += len(plain)
            gz += len(compressed)
    finally:
        server.stop()
    print(f"page weight: {len(set(paths))} files, {raw:,} bytes raw, {gz:,} bytes gzip")
    floor("page weight gzip (KB)", gz / 1024, 12, "lower")


def browser_figures(tmp):
    """First article paint and a scripted pull in headless Chromium (needs Playwright in .venv)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser figures skipped: Playwright is not installed (make deps-test)")
        return
    server = start_pulldown(tmp, ":memory:", seed=50)
    # The browser's own floor: a static page that is one article, served the same way.
    bare = pathlib.Path(tmp) / "bare-public"
    bare.mkdir(exist_ok=True)
    (bare / "index.html").write_text("<!doctype html><html><head><meta charset=utf-8><title>bare</title></head>"
                                     "<body><article>One article</article></body></html>")
    bare_server = start_pulldown(tmp, ":memory:", "--public", str(bare))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium")
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
            context.add_init_script("""
                window.__bench = {firstArticle: null, frames: [], longTasks: 0};
                new MutationObserver((_, observer) => {
                  if (document.querySelector('article')) {
                    requestAnimationFrame(() => { window.__bench.firstArticle = performance.now(); });
                    observer.disconnect();
                  }
                }).observe(document, {childList: true, subtree: true});
                new PerformanceObserver(list => { window.__bench.longTasks += list.getEntries().length; })
                  .observe({type: 'longtask', buffered: true});
            """)
            paints, bare_paints = [], []
            page = context.new_page()
            for _ in range(9):  # alternating, so a slow moment of the machine hits both
                for port, into in ((server.port, paints), (bare_server.port, bare_paints)):
                    page.goto(f"http://127.0.0.1:{port}/")
                    page.wait_for_function("window.__bench.firstArticle !== null", timeout=10000)
                    into.append(page.evaluate("window.__bench.firstArticle"))
            page.goto(f"http://127.0.0.1:{server.port}/")
            page.wait_for_function("window.__bench.firstArticle !== null", timeout=10000)
            # Three pulls; frames are timed from touchStart to touchEnd (the gesture itself), and
            # separately for the refresh that follows the release.
            gesture_frames, after_frames, long_tasks = [], [], 0
            cdp = context.new_cdp_session(page)
            for _ in range(3):
                page.evaluate("""() => { window.__bench.longTasks = 0; window.__bench.frames = [];
                    window.__bench.released = null; let last = performance.now();
                    const tick = now => { window.__bench.frames.push([now, now - last]); last = now;
                      if (window.__bench.frames.length < 400) requestAnimationFrame(tick); };
                    requestAnimationFrame(tick); }""")
                page.wait_for_timeout(100)
                started = page.evaluate("performance.now()")
                x, y = 195, 300
                cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
                for step in range(1, 41):
                    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + step * 5}]})
                    page.wait_for_timeout(16)
                released = page.evaluate("performance.now()")
                cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
                page.wait_for_timeout(1500)
                frames = page.evaluate("window.__bench.frames.slice(1)")
                gesture_frames += [d for t, d in frames if started < t <= released]
                after_frames += [d for t, d in frames if t > released]
                long_tasks += page.evaluate("window.__bench.longTasks")
                page.wait_for_timeout(300)
            browser.close()
    finally:
        server.stop()
        bare_server.stop()
    first_paint = statistics.median(paints)
    longest = max(gesture_frames) if gesture_frames else float("nan")
    longest_after = max(after_frames) if after_frames else float("nan")
    print(f"browser: first article painted {first_paint:.0f} ms after navigation (median of {len(paints)}; "
          f"a bare one-article static page: {statistics.median(bare_paints):.0f} ms); "
          f"3 pull gestures: longest frame {longest:.1f} ms over {len(gesture_frames)} frames, {long_tasks} long "
          f"tasks; the refreshes after release: longest frame {longest_after:.1f} ms")
    floor("first article painted (ms)", first_paint, 150, "lower")
    floor("longest frame during pull (ms)", longest, 32, "lower")
    floor("long tasks during pull", long_tasks, 0, "lower")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer, shorter runs (under two minutes)")
    parser.add_argument("--only", default="", help="comma-separated scenarios to run (newest,deep,refresh,static,"
                                                      "delayed,weight,browser,window,live,postgres); all when empty")
    args = parser.parse_args()
    args.rounds, args.seconds = (2, 3) if args.quick else (5, 5)

    if not BINARY.exists():
        sys.exit(f"no release binary at {BINARY}: run `swift build -c release` (make bench does)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pulldown-bench-") as tmp:
        print(f"Pulldown benchmark ({'quick' if args.quick else 'full'}): {args.rounds} alternating rounds "
              f"of {args.seconds} s per subject, wrk -t2 -c64, {CORES} cores\n")
        wanted = set(filter(None, args.only.split(","))) or {
            "newest", "deep", "refresh", "static", "delayed", "weight", "browser", "window", "live", "postgres"}
        if "newest" in wanted:
            db100k, _ = seed_store(tmp, 100_000)
            scenario_newest(tmp, args, db100k)
        if wanted & {"deep", "refresh"}:
            db1m, seed_seconds = seed_store(tmp, 1_000_000)
            print(f"seeding 1,000,000 items: {seed_seconds:.1f} s (start to Listening)")
            floor("seed 1M items (s)", seed_seconds, 30, "lower")
            if "deep" in wanted:
                scenario_deep(tmp, args, db1m)
            if "refresh" in wanted:
                scenario_refresh(tmp, args, db1m)
        if "static" in wanted:
            scenario_static(tmp, args)
        if "delayed" in wanted:
            scenario_delayed(tmp, args)
        if "weight" in wanted:
            page_weight(tmp)
        if "browser" in wanted:
            browser_figures(tmp)
        if "window" in wanted:
            import browser_window  # bench/browser_window.py: the windowed feed, 2,000 pages deep
            browser_window.run(tmp, start_pulldown, floor, pages=300 if args.quick else 2000)
        if "live" in wanted:
            import live_events  # bench/live_events.py: 10,000 server-sent event subscribers
            live_events.run(tmp, start_pulldown, probe_latency, floor, streams=2_000 if args.quick else 10_000)
        if "postgres" in wanted:
            scenario_postgres(tmp, args)
    print()
    print_table(["scenario", "subject", "req/s", "p50 ms", "p99 ms", "errors", "ratio", "RSS MB"], ROWS)
    print_table(["floor", "measured", "must be", "verdict"], FLOORS)
    print(f"finished in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()

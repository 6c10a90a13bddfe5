"""The servers a benchmark measures: the release build of Pulldown, its seeded stores, and
nginx serving the exact bytes Pulldown answers ("Pulldown against nginx on the same bytes")."""
import os
import pathlib
import shutil
import socket
import sqlite3
import time

from load import alternate
from pulldownkit.client import call
from pulldownkit.process import Process
from pulldownkit.raw import free_port
from pulldownkit.server import REPO, start_server
from pulldownkit.waiting import wait_until
from report import floor, row

RELEASE = REPO / ".build" / "release" / "pulldown"
# The page as users get it: scripts/build-public.sh bundles Public/ into it.
BUNDLE = REPO / ".build" / "public"
CORES = os.cpu_count() or 2


def start_pulldown(tmp, db, *extra, seed=0, public=BUNDLE):
    """The release build on `db` serving the bundled page, quiet, on a free port; stopped by PID
    with .stop()."""
    return start_server(tmp, *extra, db=db, seed=seed, binary=str(RELEASE), public=public)


class Bench:
    """What every scenario gets: the run's temporary folder, its options (rounds and seconds per
    subject) and the seeded stores, each made once and copied for a scenario that writes."""

    def __init__(self, tmp, quick):
        self.tmp = pathlib.Path(tmp)
        self.quick = quick
        self.rounds, self.seconds = (2, 3) if quick else (5, 5)
        self._stores = {}

    @staticmethod
    def playwright(scenario):
        """Playwright's `sync_playwright`, or None (said on stdout) when it is not installed, so a
        browser scenario skips rather than failing the run."""
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            print(f"{scenario} skipped: Playwright is not installed (make deps-bench)")
            return None
        return sync_playwright

    def store(self, count):
        """A copy of a store of `count` items, seeded the first time it is asked for."""
        if count not in self._stores:
            db = self.tmp / f"seed-{count}.sqlite"
            started = time.monotonic()
            server = start_pulldown(self.tmp, db, seed=count)
            seconds = time.monotonic() - started
            server.stop()
            self._stores[count] = db
            if count == 1_000_000:
                print(f"seeding 1,000,000 items: {seconds:.1f} s (start to Listening)")
                floor("seed 1M items (s)", seconds, 30, "lower")
        return self._stores[count]

    def copy_store(self, count, name):
        source = self.store(count)
        connection = sqlite3.connect(source)
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        return shutil.copy(source, self.tmp / name)


def accepts(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def start_nginx(tmp, files, tls=None):
    """nginx with one worker a core, no sendfile, serving `files` ({path: (bytes, content type,
    content encoding or None)}) from a temp root; over TLS when `tls` is (certificate, key) files."""
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
    listen 127.0.0.1:{port}{" ssl" if tls else ""};
    {f"ssl_certificate {tls[0]}; ssl_certificate_key {tls[1]};" if tls else ""}
    root {www};
    {' '.join(locations)}
  }}
}}
""")
    nginx = Process(["nginx", "-c", str(conf), "-p", str(root)], cwd=tmp).start()
    nginx.port = port
    wait_until(lambda: accepts(port), timeout=10, interval=0.05)
    return nginx


def against_nginx(bench, label, db, path, content_type, request_headers=None, seed=0):
    """Pulldown on `db` answering GET `path`, against nginx serving the very bytes (and
    Content-Encoding) Pulldown answered, in alternating wrk runs; adds both rows under `label`.
    Returns the medians by subject ("pulldown", "nginx")."""
    request_headers = request_headers or {}
    server = start_pulldown(bench.tmp, db, seed=seed)
    nginx = None
    try:
        reply = call(server, "GET", path, headers=request_headers, timeout=30)
        encoding = reply.header("Content-Encoding")
        nginx = start_nginx(bench.tmp, {"/same-bytes": (reply.body, content_type, encoding)})
        results = alternate([("pulldown", f"http://127.0.0.1:{server.port}{path}", {}),
                             ("nginx", f"http://127.0.0.1:{nginx.port}/same-bytes", {})],
                            bench.rounds, bench.seconds, headers=[f"{k}: {v}" for k, v in request_headers.items()])
        rss = server.rss_mb()
    finally:
        server.stop()
        if nginx:
            nginx.stop()
    row(label, "nginx", results["nginx"])
    row(label, "pulldown", results["pulldown"], results["nginx"], rss=rss)
    return results, encoding

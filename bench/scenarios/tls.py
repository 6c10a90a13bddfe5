"""8: HTTPS (--https): the newest page of a 100,000-item store over TLS on keep-alive connections,
against nginx with TLS serving the same bytes with the same certificate and key (Pulldown's own,
ECDSA P-256); the time to a first answer on a new TLS connection (connect, full handshake, the
page), both servers alternating; and the time from starting the process to its first answer over
TLS, the first start (which creates the authority) and a second."""
import ssl
import statistics
import time

from load import alternate, first_answers
from pulldownkit.client import call
from report import floor, row
from servers import start_nginx, start_pulldown

PATH = "/api/items?limit=20"


def run(bench):
    db = bench.copy_store(100_000, "tls.sqlite")
    folder = bench.tmp / "tls.sqlite.tls"
    server = start_pulldown(bench.tmp, db, "--https")
    nginx = None
    try:
        context = ssl.create_default_context(cafile=str(folder / "ca.pem"))
        server.tls = context
        reply = call(server, "GET", PATH, timeout=30)
        nginx = start_nginx(bench.tmp, {"/same-bytes": (reply.body, "application/json", None)},
                            tls=(folder / "server.pem", folder / "server-key.pem"))
        results = alternate([("pulldown", f"https://127.0.0.1:{server.port}{PATH}", {}),
                             ("nginx", f"https://127.0.0.1:{nginx.port}/same-bytes", {})],
                            bench.rounds, bench.seconds)
        rss = server.rss_mb()
        count = 100 if bench.quick else 300
        first = {"pulldown": [], "nginx": []}
        for _ in range(bench.rounds):
            first["pulldown"] += first_answers(server.port, PATH, context, count)
            first["nginx"] += first_answers(nginx.port, "/same-bytes", context, count)
    finally:
        server.stop()
        if nginx:
            nginx.stop()
    row("8 TLS newest page (100k)", "nginx TLS, same bytes", results["nginx"])
    row("8 TLS newest page (100k)", "pulldown --https", results["pulldown"], results["nginx"], rss=rss)
    figures = {name: {"rps": 1000 / statistics.median(times), "p50": statistics.median(times),
                      "p99": sorted(times)[int(len(times) * 0.99)], "errors": 0} for name, times in first.items()}
    row("8 TLS first answer, new connection", "nginx TLS", figures["nginx"])
    row("8 TLS first answer, new connection", "pulldown --https", figures["pulldown"], figures["nginx"], ratio_of="p50")
    floor("TLS newest page rps / nginx TLS", results["pulldown"]["rps"] / results["nginx"]["rps"], 0.8)
    floor("TLS first answer p50 / nginx TLS", figures["pulldown"]["p50"] / figures["nginx"]["p50"], 1.5, "lower")

    for label in ["first start, creates the authority", "second start, reuses it"]:
        started = time.monotonic()
        server = start_pulldown(bench.tmp, ":memory:", "--https", "--tls-dir", str(bench.tmp / "startup.tls"))
        try:
            server.tls = ssl.create_default_context(cafile=str(bench.tmp / "startup.tls" / "ca.pem"))
            assert call(server, "GET", "/healthz", timeout=10).status == 200
            seconds = time.monotonic() - started
        finally:
            server.stop()
        print(f"start to a first TLS answer, {label}: {seconds * 1000:.0f} ms")
        floor(f"start to first TLS answer, {label.split(',')[0]} (ms)", seconds * 1000, 1000, "lower")

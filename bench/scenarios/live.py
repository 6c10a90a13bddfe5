"""10,000 subscribers of GET /api/events on one process (bench.py --only live).

The subscribers live in one small C program (bench/sse_clients.c, built here with gcc) that holds
every stream with epoll and notes, on the machine's monotonic clock, when each one received an
event. Python posts an item and hands its id to the clients; the latency of each subscriber is the
time from the moment the POST was sent (so the insert and its commit count too) to its receipt.

Also measured: RSS per open stream (RSS with the streams open minus RSS before, divided by their
number) and the /healthz latency while the streams are open and an item is posted every 100 ms.
Everything runs on loopback and stops by itself (the client has its own deadline).
"""
import pathlib
import subprocess
import multiprocessing
import time

from load import probe_latency
from pulldownkit.client import post
from report import floor
from servers import start_pulldown

CLIENT_SOURCE = pathlib.Path(__file__).resolve().parents[1] / "sse_clients.c"
POSTS = 10            # items posted one at a time, each awaited by every subscriber
CLIENT_DEADLINE_S = 60


def build_client(tmp):
    binary = pathlib.Path(tmp) / "sse_clients"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(CLIENT_SOURCE)], check=True)
    return binary


def post_item(server, title):
    reply = post(server, "/api/items", json={"title": title, "body": "bench"}, timeout=10)
    assert reply.status == 201, reply
    return reply.json()["id"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def run(bench):
    streams = 2_000 if bench.quick else 10_000
    client = build_client(bench.tmp)
    server = start_pulldown(bench.tmp, ":memory:", "--max-streams", str(streams), seed=100)
    subscribers = None
    try:
        time.sleep(0.5)   # let the server settle before the baseline RSS
        rss_before = server.rss_mb()
        # The subscribers run at a lower priority: on two cores their 10,000 reads per event would
        # otherwise take the CPU from the server whose latency this measures.
        subscribers = subprocess.Popen(["nice", "-n", "10", str(client), str(server.port), str(streams), str(CLIENT_DEADLINE_S)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = subscribers.stdout.readline().strip()
        if ready != "READY":
            raise RuntimeError(f"the subscribers did not all connect: {ready!r}")
        rss_open = server.rss_mb()
        per_stream_kib = (rss_open - rss_before) * 1024 / streams

        latencies, delivered = [], []
        for index in range(POSTS):
            sent = time.monotonic_ns()
            item = post_item(server, f"live {index}")
            subscribers.stdin.write(f"WAIT {item}\n")
            subscribers.stdin.flush()
            got = subscribers.stdout.readline().split()
            delivered.append(int(got[1]))
            latencies += [(int(t) - sent) / 1e6 for t in got[2:]]

        # /healthz while every stream is open and an item is posted every 100 ms. The poster is a
        # process of its own: as a thread it would share the probe's interpreter lock, and the
        # probe would time the poster as well as the server.
        stop = multiprocessing.Event()

        def keep_posting():
            number = 0
            while not stop.wait(0.1):
                post_item(server, f"background {number}")
                number += 1

        poster = multiprocessing.get_context("fork").Process(target=keep_posting)
        poster.start()
        try:
            health = probe_latency(server.port, "/healthz", 5)
        finally:
            stop.set()
            poster.join(timeout=10)
    finally:
        if subscribers is not None:
            subscribers.stdin.close()
            subscribers.wait(timeout=CLIENT_DEADLINE_S + 10)
        server.stop()

    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    print(f"7 live events, {streams:,} subscribers, {POSTS} posts one at a time:")
    print(f"   delivered {min(delivered):,} to {max(delivered):,} of {streams:,} per post; "
          f"latency from the POST: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms")
    print(f"   RSS {rss_before:.1f} MB before, {rss_open:.1f} MB with the streams open: "
          f"{per_stream_kib:.1f} KiB per stream")
    print(f"   /healthz meanwhile (posting every 100 ms): p50 {health['p50']:.2f} ms, p99 {health['p99']:.2f} ms")
    floor("every subscriber got every post", min(delivered), streams, unit=" subscribers")
    floor("live delivery p99", p99, 500, better="lower", unit=" ms")
    floor("RSS per open stream", per_stream_kib, 24, better="lower", unit=" KiB")
    floor("/healthz p99 with the streams open", health["p99"], 20, better="lower", unit=" ms")

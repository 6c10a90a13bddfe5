"""2: keyset paging: a page near the oldest end of 1,000,000 items costs what the same query
costs at the newest end.

The newest page itself is answered from memory, so it is shown for reference; the floor compares
the deep page with `before=<newest id + 1>`, the same rows as the newest page read through the
same query. Both name the feed, as the links the server hands out do, so both are kept in
memory until a change touches them (scenario 13 measures them while items change). The page
around an item and a range at the same depth are measured against the deep `before=` page.
"""
from load import alternate
from pulldownkit.client import get
from report import floor, row
from servers import start_pulldown


def run(bench):
    server = start_pulldown(bench.tmp, bench.copy_store(1_000_000, "deep.sqlite"))
    try:
        newest = get(server, "/api/items?limit=1", timeout=30).json()
        newest_id, feed = newest["items"][0]["id"], newest["feed"]
        base = f"http://127.0.0.1:{server.port}/api/items?limit=20"
        results = alternate([("newest", base, {}),
                             ("newest-query", f"{base}&before={newest_id + 1}&feed={feed}", {}),
                             ("deep", f"{base}&before=200&feed={feed}", {}),
                             ("around", f"{base}&around=190&feed={feed}", {}),
                             ("range", f"{base}&after=100&before=200&feed={feed}", {})],
                            bench.rounds, bench.seconds)
        rss = server.rss_mb()
    finally:
        server.stop()
    row("2 deep page (1M)", "newest page (from memory)", results["newest"])
    row("2 deep page (1M)", f"before={newest_id + 1} (newest, queried)", results["newest-query"])
    row("2 deep page (1M)", "before=200 (oldest end)", results["deep"], results["newest-query"], ratio_of="p50", rss=rss)
    row("2 deep page (1M)", "around=190 (oldest end)", results["around"], results["deep"], ratio_of="p50")
    row("2 deep page (1M)", "after=100&before=200", results["range"], results["deep"], ratio_of="p50")
    floor("deep page p50 / same query at the newest end", results["deep"]["p50"] / results["newest-query"]["p50"], 1.2, "lower")
    # Both kept in memory as the deep page is: the same cost, within wrk's noise.
    floor("around= p50 / the deep page's", results["around"]["p50"] / results["deep"]["p50"], 1.1, "lower")
    floor("range p50 / the deep page's", results["range"]["p50"] / results["deep"]["p50"], 1.1, "lower")

"""1: the newest page of a 100,000-item store against nginx serving the same bytes."""
from report import floor
from servers import against_nginx


def run(bench):
    db = bench.copy_store(100_000, "newest.sqlite")
    results, _ = against_nginx(bench, "1 newest page (100k)", db, "/api/items?limit=20", "application/json")
    floor("newest page rps / nginx", results["pulldown"]["rps"] / results["nginx"]["rps"], 0.8)
    floor("newest page p99 / nginx p99", results["pulldown"]["p99"] / results["nginx"]["p99"], 2.0, "lower")

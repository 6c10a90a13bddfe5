"""4: the page itself, `/` gzipped with the newest page of 50 items in it, against nginx serving
the same compressed bytes."""
from report import floor
from servers import against_nginx


def run(bench):
    results, encoding = against_nginx(bench, "4 static / (gzip)", ":memory:", "/", "text/html",
                                      {"Accept-Encoding": "gzip"}, seed=50)
    assert encoding == "gzip"
    floor("static / rps / nginx", results["pulldown"]["rps"] / results["nginx"]["rps"], 1.0)

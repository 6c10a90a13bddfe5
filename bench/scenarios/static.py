"""4: the page itself, `/` gzipped, against nginx serving the same compressed bytes."""
from report import floor
from servers import against_nginx


def run(bench):
    results, encoding = against_nginx(bench, "4 static / (gzip)", ":memory:", "/", "text/html",
                                      {"Accept-Encoding": "gzip"})
    assert encoding == "gzip"
    floor("static rps / nginx", results["pulldown"]["rps"] / results["nginx"]["rps"], 0.8)

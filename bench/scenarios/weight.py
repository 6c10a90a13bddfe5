"""Page weight: everything `/` loads (the page, its scripts and styles), raw and gzipped."""
import re

from pulldownkit.client import get
from report import floor
from servers import start_pulldown


def run(bench):
    server = start_pulldown(bench.tmp, ":memory:")
    try:
        html = get(server, "/", timeout=30).body
        paths = ["/"] + re.findall(r'(?:href|src)="(/[^"]+\.(?:js|css))"', html.decode())
        raw = gz = 0
        for path in dict.fromkeys(paths):
            raw += len(get(server, path, timeout=30).body)
            gz += len(get(server, path, headers={"Accept-Encoding": "gzip"}, timeout=30).body)
    finally:
        server.stop()
    print(f"page weight: {len(set(paths))} files, {raw:,} bytes raw, {gz:,} bytes gzip")
    floor("page weight gzip (KB)", gz / 1024, 12, "lower")

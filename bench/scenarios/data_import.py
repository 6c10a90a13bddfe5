"""Import of a --data file of 100,000 entries with pictures and user fields: seconds from start
to `Listening`, and the process's peak resident memory (VmHWM), which must stay bounded since
the file is read as a stream."""
import json
import time

from pulldownkit.client import get
from report import floor
from servers import start_pulldown

ENTRIES = 100_000
PICTURES = 20
# Peak RSS of the whole process while importing, the server's own footprint included.
RSS_FLOOR_MB = 64


def write_file(folder):
    """An NDJSON file of ENTRIES entries, each with an avatar and an image among PICTURES files
    beside it, a link, and fields of the user's own; newest first, without createdAt."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>'
    for n in range(PICTURES):
        (folder / f"p{n}.svg").write_text(svg)
    path = folder / "posts.ndjson"
    with open(path, "w") as file:
        for n in range(ENTRIES):
            file.write(json.dumps({
                "title": f"Post number {n}", "body": "A line of text about the post. " * 4, "author": f"user{n % 97}",
                "avatar": f"p{n % PICTURES}.svg", "url": f"https://example.com/posts/{n}",
                "image": {"url": f"p{(n * 7) % PICTURES}.svg", "width": 400 + n % 300, "height": 300, "alt": "A picture"},
                "likes": n % 1000, "user": {"handle": f"@user{n % 97}", "verified": n % 2 == 0}, "tags": ["a", "b"],
            }) + "\n")
    return path


def peak_rss_mb(process):
    for line in open(f"/proc/{process.process.pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def run(bench):
    folder = bench.tmp / "import"
    folder.mkdir(exist_ok=True)
    path = write_file(folder)
    size_mb = path.stat().st_size / 1e6
    runs = []
    for round_ in range(1 if bench.quick else 3):
        started = time.monotonic()
        server = start_pulldown(bench.tmp, folder / f"import-{round_}.sqlite", "--data", str(path))
        seconds = time.monotonic() - started
        try:
            rss = peak_rss_mb(server)
            newest = get(server, "/api/items?limit=1").json()["items"][0]["id"]
        finally:
            server.stop()
        assert newest == ENTRIES, newest
        runs.append((seconds, rss))
    seconds = sorted(s for s, _ in runs)[len(runs) // 2]
    rss = max(r for _, r in runs)
    print(f"import of {ENTRIES:,} entries ({size_mb:.0f} MB NDJSON, pictures and own fields): "
          f"{seconds:.1f} s start to Listening (median of {len(runs)}), peak RSS {rss:.1f} MB")
    floor("import 100k entries: peak RSS (MB)", rss, RSS_FLOOR_MB, "lower")
    floor("import 100k entries (s)", seconds, 30, "lower")


"""Import of a --data file of 100,000 entries with pictures and user fields: seconds from start
to `Listening`, and the process's peak resident memory (VmHWM), which must stay bounded since
the file is read as a stream."""
import json
import select
import subprocess
import time
import urllib.request

from pulldownkit.process import Process
from report import floor
from servers import BUNDLE, RELEASE

ENTRIES = 100_000
PICTURES = 20
# Peak RSS of the whole process while importing, the server's own footprint included.
RSS_FLOOR_MB = 64
# Only a hang fails: an import on busy cores may take far longer than the floor.
IMPORT_TIMEOUT = 300


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


def peak_rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def import_once(bench, db, path):
    """Starts the release build on `path` and a fresh `db`; returns the seconds until it printed
    `Listening`, its peak RSS then, and its newest item id. Stopped by PID."""
    process = Process([str(RELEASE), "--data", str(path), "--db", str(db), "--port", "0", "--quiet", "--no-qr",
                       "--seed", "0", "--public", str(BUNDLE)], cwd=bench.tmp)
    started = time.monotonic()
    process.start(stdout=subprocess.PIPE)
    try:
        ready, _, _ = select.select([process.process.stdout], [], [], IMPORT_TIMEOUT)
        line = process.process.stdout.readline().decode() if ready else ""
        seconds = time.monotonic() - started
        if not line.startswith("Listening on http://"):
            raise RuntimeError(f"the import did not finish: {line!r}")
        rss = peak_rss_mb(process.process.pid)
        host, port = line.strip().removeprefix("Listening on http://").rsplit(":", 1)
        reply = urllib.request.urlopen(f"http://{host}:{port}/api/items?limit=1", timeout=10)
        newest = json.load(reply)["items"][0]["id"]
    finally:
        process.stop()
    return seconds, rss, newest


def run(bench):
    folder = bench.tmp / "import"
    folder.mkdir(exist_ok=True)
    path = write_file(folder)
    size_mb = path.stat().st_size / 1e6
    runs = []
    for round_ in range(1 if bench.quick else 3):
        seconds, rss, newest = import_once(bench, folder / f"import-{round_}.sqlite", path)
        assert newest == ENTRIES, newest
        print(f"  import round {round_ + 1}: {seconds:.1f} s, peak RSS {rss:.1f} MB", flush=True)
        runs.append((seconds, rss))
    seconds = sorted(s for s, _ in runs)[len(runs) // 2]
    rss = max(r for _, r in runs)
    print(f"import of {ENTRIES:,} entries ({size_mb:.0f} MB NDJSON, pictures and own fields): "
          f"{seconds:.1f} s start to Listening (median of {len(runs)}), peak RSS {rss:.1f} MB (most of {len(runs)})")
    floor("import 100k entries: peak RSS (MB)", rss, RSS_FLOOR_MB, "lower")
    floor("import 100k entries (s)", seconds, 30, "lower")

"""3: POST /api/refresh from 10,000 sessions on 1,000,000 items, against the newest page of the
same server; afterwards the store must count every refresh wrk saw answered."""
import sqlite3

from load import alternate, issue_sessions, refresh_script
from report import floor, row
from servers import start_pulldown

SESSIONS = 10_000


def run(bench):
    db = bench.copy_store(1_000_000, "refresh.sqlite")
    server = start_pulldown(bench.tmp, db)
    try:
        # Session ids must be ones the server issued.
        script = refresh_script(bench.tmp, issue_sessions(server.port, SESSIONS))
        results = alternate([("refresh", f"http://127.0.0.1:{server.port}/api/refresh", {"script": script}),
                             ("newest", f"http://127.0.0.1:{server.port}/api/items?limit=20", {})],
                            bench.rounds, bench.seconds)
        rss = server.rss_mb()
    finally:
        server.stop()
    stored = sqlite3.connect(db).execute("SELECT count(*), coalesce(sum(refresh_count), 0) FROM sessions").fetchone()
    row("3 refresh (10k sessions)", "newest page", results["newest"])
    row("3 refresh (10k sessions)", "POST /api/refresh", results["refresh"], results["newest"], rss=rss)
    floor("refresh rps / newest rps", results["refresh"]["rps"] / results["newest"]["rps"], 0.5)
    answered = results["refresh"]["requests"]
    print(f"refresh: {answered} refreshes answered by wrk (all rounds), {stored[1]} counted in the store "
          f"across {stored[0]} sessions")
    floor("refreshes persisted / answered", stored[1] / max(1, answered), 1.0)
    floor("RSS with 1M items and 10k sessions (MB)", rss, 32, "lower")

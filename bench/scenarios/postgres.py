"""6: two instances on one throwaway PostgreSQL against one instance on SQLite, same data:
the newest page and refreshes, each pair loaded at once. The floors are the ones issue 14 set
for two instances: refresh at least 0.3x one SQLite process, the newest page at least 0.4x."""
import subprocess

from load import issue_sessions, median_runs, refresh_script, wrk_together
from pulldownkit.server import REPO
from report import floor, row
from servers import start_pulldown

ITEMS = 10_000
SESSIONS = 2_000
POSTGRES_SH = str(REPO / "scripts" / "postgres.sh")


def run(bench):
    started = subprocess.run([POSTGRES_SH, "start"], capture_output=True, text=True)
    if started.returncode != 0:
        print(f"postgres scenario skipped: no throwaway cluster ({started.stderr.strip()[:200]})")
        return
    env = dict(line.removeprefix("export ").split("=", 1) for line in started.stdout.splitlines()
               if line.startswith("export "))
    url, cluster = env["PULLDOWN_TEST_POSTGRES_URL"], env["PULLDOWN_TEST_POSTGRES_DIR"]
    servers = []
    try:
        sqlite = start_pulldown(bench.tmp, bench.tmp / "pg-baseline.sqlite", seed=ITEMS)
        servers.append(sqlite)
        first = start_pulldown(bench.tmp, url, seed=ITEMS)
        second = start_pulldown(bench.tmp, url)
        servers += [first, second]
        page = "/api/items?limit=20"
        single, both = [], []
        rounds = 1 if bench.quick else bench.rounds  # keeps --quick under two minutes
        for _ in range(rounds):
            single.append(wrk_together([f"http://127.0.0.1:{sqlite.port}{page}"] * 2, bench.seconds))
            both.append(wrk_together([f"http://127.0.0.1:{s.port}{page}" for s in (first, second)], bench.seconds))
        sqlite_script = refresh_script(bench.tmp, issue_sessions(sqlite.port, SESSIONS), "pg-sqlite.lua")
        shared_script = refresh_script(bench.tmp, issue_sessions(first.port, SESSIONS), "pg-shared.lua")
        single_refresh, both_refresh = [], []
        for _ in range(rounds):
            single_refresh.append(wrk_together([f"http://127.0.0.1:{sqlite.port}/api/refresh"] * 2, bench.seconds,
                                               sqlite_script))
            both_refresh.append(wrk_together([f"http://127.0.0.1:{s.port}/api/refresh" for s in (first, second)],
                                             bench.seconds, shared_script))
    finally:
        for server in servers:
            server.stop()
        subprocess.run([POSTGRES_SH, "stop", cluster], capture_output=True)
    label = f"6 PostgreSQL, 2 instances ({ITEMS // 1000}k)"
    newest_single, newest_both = median_runs(single), median_runs(both)
    refresh_single, refresh_both = median_runs(single_refresh), median_runs(both_refresh)
    row(label, "newest page, 1 SQLite", newest_single)
    row(label, "newest page, 2 on PostgreSQL", newest_both, newest_single)
    row(label, "refresh, 1 SQLite", refresh_single)
    row(label, "refresh, 2 on PostgreSQL", refresh_both, refresh_single)
    floor("newest page: 2 on PostgreSQL / 1 SQLite", newest_both["rps"] / newest_single["rps"], 0.4)
    floor("refresh: 2 on PostgreSQL / 1 SQLite", refresh_both["rps"] / refresh_single["rps"], 0.3)

"""Crash safety: two rounds of posting and refreshing at full speed, SIGKILL, restart; nothing
acknowledged is lost (pulldownkit.crash, which `make soak` repeats)."""
from pulldownkit.crash import crash_round


def test_nothing_acknowledged_is_lost_when_the_server_is_killed(tmp_path):
    db = tmp_path / "crash.sqlite"
    for _ in range(2):
        crash_round(tmp_path, db)

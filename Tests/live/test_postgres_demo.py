"""The demo knobs of two instances on one PostgreSQL database: one state, stored in the database
and announced with NOTIFY, so a change made on either holds on both within a second."""
import subprocess
import time

import pytest

from pulldownkit.events import Stream
from pulldownkit.waiting import wait_until
from test_api_demo import knobs, patch
from test_api_support import assert_problem
from test_postgres import URL, database  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not URL, reason="PULLDOWN_TEST_POSTGRES_URL is not set (make test sets it)")
# What docs/demo.md promises for a change to reach the other instances.
WITHIN = 1.0


def connections(database):  # noqa: F811
    """How many connections are open to `database` (an instance's pool and listener)."""
    name = database.rsplit("/", 1)[1]
    result = subprocess.run(["psql", "-tA", URL, "-c", f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}'"],
                            check=True, capture_output=True, text=True, timeout=30)
    return int(result.stdout)


def reaches(server, state):
    """Seconds until GET /api/demo on `server` answers `state` (polled, never slept through)."""
    started = time.monotonic()
    assert wait_until(lambda: knobs(server) == state), (knobs(server), state)
    return time.monotonic() - started


def test_a_patch_on_one_instance_holds_on_the_other_within_a_second_and_reaches_its_streams(start_server,
                                                                                              database):  # noqa: F811
    a = start_server("--delay-ms", "20", db=database)
    b = start_server(db=database)
    assert knobs(b) == knobs(a) and knobs(b)["delayMs"] == 20, "the second joined the running one's knobs"
    stream = Stream(b)
    try:
        reply = patch(a, {"failRate": 0.25, "delayMs": 0})
        assert reply.status == 200, reply
        changed = reply.json()
        assert changed["failRate"] == 0.25 and changed["delayMs"] == 0
        assert reaches(b, changed) < WITHIN
        assert stream.next_named("demo").data == changed
        # And back the other way.
        again = patch(b, {"failRate": 0}).json()
        assert reaches(a, again) < WITHIN
    finally:
        stream.close()


def test_a_bad_patch_on_either_changes_nothing_on_both(start_server, database):  # noqa: F811
    a = start_server(db=database)
    b = start_server(db=database)
    before = knobs(a)
    assert_problem(patch(b, {"delayMs": 5, "failRate": 2}), 400)
    assert_problem(patch(a, {"jitterMs": 5, "speed": 1}), 400)
    # The next good change is the first the other instance sees: nothing of the bad ones.
    good = patch(b, {"newItemsEvery": 30}).json()
    assert good == {**before, "newItemsEvery": 30}
    reaches(a, good)
    assert knobs(b) == good


def test_patches_on_both_merge_and_null_restores_the_first_start_s_values_on_every_instance(start_server,
                                                                                             database):  # noqa: F811
    a = start_server("--delay-ms", "40", db=database)
    b = start_server("--delay-ms", "7", "--jitter-ms", "3", db=database)
    assert "theirs hold here too" in b.stderr(), b.stderr()
    assert patch(a, {"delayMs": 900}).status == 200
    merged = patch(b, {"jitterMs": 11}).json()
    assert (merged["delayMs"], merged["jitterMs"]) == (900, 11), "the second patch built on the first"
    reset = patch(b, {"delayMs": None, "jitterMs": None}).json()
    assert (reset["delayMs"], reset["jitterMs"]) == (40, 0), "the values the running group started with"
    reaches(a, reset)


def test_once_every_instance_stopped_the_next_start_s_flags_hold(start_server, database):  # noqa: F811
    a = start_server(db=database)
    assert patch(a, {"delayMs": 500}).status == 200
    a.stop()
    # Its listening connection, which told others it runs, is gone once the server noticed.
    assert wait_until(lambda: connections(database) == 0)
    b = start_server("--fail-rate", "0.5", db=database)
    assert (knobs(b)["delayMs"], knobs(b)["failRate"]) == (0, 0.5), "a past run's knobs are not kept"

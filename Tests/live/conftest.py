"""Fixtures shared by the live tests: every server gets its own temporary database and is
stopped by PID when the test ends."""
import pytest

from pulldownkit.server import start_server as start_in


@pytest.fixture
def start_server(tmp_path):
    """Returns a function that starts a server with extra arguments; all are stopped at the end.

    The defaults give each server a fresh database in tmp_path, no access log, and no
    items appearing over time, so tests see only what they cause.
    """
    servers = []

    def start(*args, db=None, seed="0", new_items_every="0", quiet=True, env=None, binary=None):
        server = start_in(tmp_path, *args, db=db, seed=seed, new_items_every=new_items_every, quiet=quiet, env=env,
                          binary=binary)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server):
    """A server with 50 seeded items and default settings otherwise."""
    return start_server(seed="50")

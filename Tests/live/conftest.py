"""Fixtures shared by the live tests: a real `pulldown` process on a free loopback port.

Every server gets its own temporary database and is stopped by PID when the test ends.
The binary comes from PULLDOWN_BIN (the Makefile sets it), else the debug build.
"""
import os
import pathlib
import select
import signal
import subprocess
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("PULLDOWN_BIN", str(REPO / ".build" / "debug" / "pulldown"))
STARTUP_SECONDS = 15


class Server:
    """A running pulldown process: its base URL, its arguments and a way to stop it."""

    def __init__(self, args, cwd, env=None):
        self.args = list(args)
        self.cwd = cwd
        self.env = env
        self.process = None
        self.url = None
        self.stderr_path = pathlib.Path(cwd) / f"stderr-{time.monotonic_ns()}.log"

    def start(self):
        full_env = dict(os.environ)
        full_env.update(self.env or {})
        self._stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [BINARY, *self.args], cwd=self.cwd, env=full_env,
            stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + STARTUP_SECONDS
        line = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline()
                break
            if self.process.poll() is not None:
                break
        text = line.decode().strip()
        if not text.startswith("Listening on http://"):
            self.stop()
            raise RuntimeError(f"server did not start: {text!r}; stderr: {self.stderr()}")
        self.url = text.removeprefix("Listening on ")
        host_port = self.url.removeprefix("http://")
        self.host, port = host_port.rsplit(":", 1)
        self.port = int(port)
        return self

    def stderr(self):
        try:
            return self.stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self, sig=signal.SIGTERM, timeout=5):
        """Stops the process by PID and returns its exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self._stderr.close()
        return self.process.returncode


@pytest.fixture
def start_server(tmp_path):
    """Returns a function that starts a server with extra arguments; all are stopped at the end.

    The defaults give each server a fresh database in tmp_path, no access log, and no
    items appearing over time, so tests see only what they cause.
    """
    servers = []

    def start(*args, db=None, seed="0", new_items_every="0", quiet=True, env=None):
        base = ["--port", "0", "--db", str(db or tmp_path / "feed.sqlite"),
                "--seed", str(seed), "--new-items-every", str(new_items_every),
                "--public", str(REPO / "Public")]
        if quiet:
            base.append("--quiet")
        server = Server([*base, *args], cwd=tmp_path, env=env).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server):
    """A server with 50 seeded items and default settings otherwise."""
    return start_server(seed="50")

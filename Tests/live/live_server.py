"""A real `pulldown` process on a free loopback port, for the live tests.

The binary comes from PULLDOWN_BIN (the Makefile sets it), else the debug build. Tests import
from this module, never from conftest.py: two conftest modules (here and in browser/) would
shadow each other.
"""
import os
import pathlib
import select
import signal
import subprocess
import time

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

"""A real `pulldown` process on a free loopback port, for the live tests.

The binary comes from PULLDOWN_BIN (the Makefile sets it), else the debug build. Tests import
from this module, never from conftest.py: two conftest modules (here and in browser/) would
shadow each other.
"""
import datetime
import email.utils
import http.client
import os
import pathlib
import re
import select
import signal
import subprocess
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("PULLDOWN_BIN", str(REPO / ".build" / "debug" / "pulldown"))
STARTUP_SECONDS = 15
# How long an event the server causes at once may take to show before a test calls it stuck:
# far beyond any answer on loopback, so that only a hang fails, even with every core busy.
STUCK_SECONDS = 15
# One access log line: `GET /api/items 200 1234B 0.4ms`.
LOG_LINE = re.compile(r"^(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<bytes>\d+)B? (?P<ms>\d+(\.\d+)?)ms$")
ESTABLISHED = "01"


def wait_until(predicate, timeout=STUCK_SECONDS, interval=0.02):
    """Polls `predicate` until it holds; returns its last value. The timeout only guards
    against a hang: size it to what the README promises plus headroom for busy cores."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


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

    def access_log(self):
        """The access log lines written so far, as dicts of method, path, status, bytes, ms."""
        return [match.groupdict() for match in map(LOG_LINE.match, self.stderr().splitlines()) if match]

    def unread_bytes(self):
        """{client port: bytes sent and not yet read} for each connection this process accepted.

        From the kernel's socket tables: a connection still in the listen backlog, or one whose
        request the server has not read, shows up missing or with bytes left."""
        held = set()
        for fd in pathlib.Path(f"/proc/{self.process.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                held.add(target[len("socket:["):-1])
        unread = {}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                rows = pathlib.Path(table).read_text().splitlines()[1:]
            except FileNotFoundError:
                continue
            for row in rows:
                fields = row.split()
                local, remote, state, queues, inode = fields[1], fields[2], fields[3], fields[4], fields[9]
                if state == ESTABLISHED and inode in held and int(local.rsplit(":", 1)[1], 16) == self.port:
                    unread[int(remote.rsplit(":", 1)[1], 16)] = int(queues.split(":")[1], 16)
        return unread

    def has_read(self, *sockets):
        """True when the server has accepted each client socket and read all it was sent."""
        unread = self.unread_bytes()
        return all(unread.get(sock.getsockname()[1]) == 0 for sock in sockets)

    def wait_until_read(self, *sockets):
        """Waits until the server has read what each socket sent: from then on its requests
        are the server's to answer (delayed ones are waiting, stops must answer them)."""
        assert wait_until(lambda: self.has_read(*sockets)), f"the server did not read the requests: {self.unread_bytes()}"

    def clock(self):
        """The server's own clock, to the second, from the Date header of /healthz."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=STUCK_SECONDS)
        try:
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            return email.utils.parsedate_to_datetime(response.getheader("Date"))
        finally:
            connection.close()

    def wait_for_clock_past(self, stamp, seconds=0):
        """Waits until the server's clock shows a later second than `stamp` (the API's time
        text, to the second) plus `seconds`: then more than `seconds` have passed since it."""
        moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")) + datetime.timedelta(seconds=seconds)
        assert wait_until(lambda: self.clock() > moment, interval=0.1), f"the server's clock did not pass {moment}"

    def stop(self, sig=signal.SIGTERM, timeout=STUCK_SECONDS):
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

"""A real `pulldown` process on a free loopback port.

The binary comes from PULLDOWN_BIN (the Makefile sets it), else the debug build; the benchmark
passes the release build. The page comes from PULLDOWN_PUBLIC (`make test` sets it to the
bundled page, .build/public, which users get), else the sources in Public/. `start_server` gives the arguments every caller wants (a database in a
folder of its own, no demo items over time, quiet) so that a run sees only what it causes.
"""
import datetime
import email.utils
import os
import pathlib
import re
import select
import subprocess
import time

from pulldownkit.client import get
from pulldownkit.process import Process
from pulldownkit.waiting import STUCK_SECONDS, wait_until

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = os.environ.get("PULLDOWN_BIN", str(REPO / ".build" / "debug" / "pulldown"))
PUBLIC = pathlib.Path(os.environ.get("PULLDOWN_PUBLIC", REPO / "Public"))
STARTUP_SECONDS = 15
# One access log line: `GET /api/items 200 1234B 0.4ms`.
LOG_LINE = re.compile(r"^(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<bytes>\d+)B? (?P<ms>\d+(\.\d+)?)ms$")
ESTABLISHED = "01"
# What a crash leaves on standard error; none of it may ever appear.
CRASH_MARKERS = ["Fatal error", "Stack dump", "Current stack trace", "Aborted", "core dumped",
                 "Illegal instruction", "Segmentation", "panic", "Swift runtime failure"]


def crash_markers(text):
    """The crash markers found in `text`."""
    return [marker for marker in CRASH_MARKERS if marker in text]


def start_server(folder, *args, db=None, seed=0, new_items_every=0, quiet=True, port=0, env=None, binary=None,
                 public=None):
    """Starts pulldown with its working directory and standard error file in `folder`, on
    `db` (default: folder/feed.sqlite, a fresh store) and `public` (default: PUBLIC); `args` come last.
    `new_items_every=None` gives no --new-items-every at all."""
    base = ["--port", str(port), "--db", str(db or pathlib.Path(folder) / "feed.sqlite"),
            "--seed", str(seed), "--public", str(public or PUBLIC)]
    if new_items_every is not None:
        base += ["--new-items-every", str(new_items_every)]
    if quiet:
        base.append("--quiet")
    return Server([*base, *args], cwd=folder, env=env, binary=binary).start()


class Server(Process):
    """A running pulldown: its URL, host and port, its standard error, and a way to stop it."""

    def __init__(self, args, cwd, env=None, binary=None):
        super().__init__([binary or BINARY, *args], cwd, env=None)
        self.extra_env = env
        self.url = None
        # An ssl.SSLContext for a server whose url is https:// (set by the caller, who knows its CA).
        self.tls = None
        self.stderr_path = pathlib.Path(cwd) / f"stderr-{time.monotonic_ns()}.log"
        self._stderr = None

    def start(self):
        """Starts the process and waits for its first `Listening on http(s)://HOST:PORT` line."""
        self.env = {**os.environ, **(self.extra_env or {})}
        self._stderr = open(self.stderr_path, "wb")
        super().start(stdout=subprocess.PIPE, stderr=self._stderr)
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
        if not text.startswith(("Listening on http://", "Listening on https://")):
            self.stop()
            raise RuntimeError(f"server did not start: {text!r}; stderr: {self.stderr()}")
        self.url = text.removeprefix("Listening on ")
        self.host, port = self.url.split("://", 1)[1].rsplit(":", 1)
        self.port = int(port)
        return self

    def stdout_so_far(self):
        """What the server printed on standard output after `Listening on` that is there to read
        now, without waiting: what the reader of that line holds in its buffer, then the pipe."""
        stdout = self.process.stdout
        # Not blocking, so that an empty buffer and an empty pipe read as nothing rather than wait.
        os.set_blocking(stdout.fileno(), False)
        try:
            text = stdout.read1(65536) or b""
            while select.select([stdout], [], [], 0)[0]:
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    break
                text += chunk
        finally:
            os.set_blocking(stdout.fileno(), True)
        return text.decode(errors="replace")

    def release(self):
        super().release()
        self._stderr.close()

    def stderr(self):
        try:
            return self.stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def crashes(self):
        """The crash markers in the standard error so far (none, for a healthy server)."""
        return crash_markers(self.stderr())

    def access_log(self):
        """The access log lines written so far, as dicts of method, path, status, bytes, ms."""
        return [match.groupdict() for match in map(LOG_LINE.match, self.stderr().splitlines()) if match]

    def unread_bytes(self):
        """{client port: bytes sent and not yet read} for each connection this process accepted.

        From the kernel's socket tables: a connection still in the listen backlog, or one whose
        request the server has not read, shows up missing or with bytes left."""
        return {port: unread for port, state, unread in self._connections() if state == ESTABLISHED}

    def client_ports(self):
        """The client ports of the connections this process still holds, in any TCP state: a
        connection the client closed stays here until the server lets go of it too."""
        return {port for port, _, _ in self._connections()}

    def _connections(self):
        """(client port, TCP state, bytes not yet read) for each socket this process holds on its port."""
        held = set()
        for fd in pathlib.Path(f"/proc/{self.process.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                held.add(target[len("socket:["):-1])
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                rows = pathlib.Path(table).read_text().splitlines()[1:]
            except FileNotFoundError:
                continue
            for row in rows:
                fields = row.split()
                local, remote, state, queues, inode = fields[1], fields[2], fields[3], fields[4], fields[9]
                if inode in held and int(local.rsplit(":", 1)[1], 16) == self.port:
                    yield int(remote.rsplit(":", 1)[1], 16), state, int(queues.split(":")[1], 16)

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
        return email.utils.parsedate_to_datetime(get(self, "/healthz", timeout=STUCK_SECONDS).header("Date"))

    def wait_for_clock_past(self, stamp, seconds=0):
        """Waits until the server's clock shows a later second than `stamp` (the API's time
        text, to the second) plus `seconds`: then more than `seconds` have passed since it."""
        moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")) + datetime.timedelta(seconds=seconds)
        assert wait_until(lambda: self.clock() > moment, interval=0.1), f"the server's clock did not pass {moment}"

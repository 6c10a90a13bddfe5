"""A server-sent events client on a raw socket, for GET /api/events.

It reads the chunked body as it comes and splits it into events the way EventSource does
(WHATWG HTML, "Server-sent events"), keeping comments too, so tests can see `: ping`.
"""
import json
import socket
import time


class Event:
    def __init__(self, fields, comments):
        self.fields = fields        # name -> value (the last one of each name)
        self.comments = comments    # comment lines before this event's fields

    @property
    def name(self):
        return self.fields.get("event", "message")

    @property
    def id(self):
        return self.fields.get("id")

    @property
    def data(self):
        return json.loads(self.fields["data"])

    def __repr__(self):
        return f"Event({self.fields!r}, comments={self.comments!r})"


class Stream:
    """One open GET /api/events (or another stream at `path`): its status, headers, and the events
    as they arrive. `headers` are sent too."""

    def __init__(self, server, query="", last_event_id=None, timeout=10, path="/api/events", headers=None):
        self.sock = socket.create_connection((server.host, server.port), timeout=timeout)
        if getattr(server, "tls", None):  # an https:// server: the same stream inside TLS
            self.sock = server.tls.wrap_socket(self.sock, server_hostname=server.host)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
        extra += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        # The Host a client sends: the items' pictures are written under it.
        self.sock.sendall(f"GET {path}{query} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                          f"Accept: text/event-stream\r\n{extra}\r\n".encode())
        self.raw = b""          # bytes read and not yet de-chunked
        self.text = ""          # de-chunked body not yet split into events
        self.ended = False      # the last chunk arrived
        self.closed = False     # the server closed the connection
        head = self._read_until(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split(" ")[1])
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.body = b""
        if "content-length" in self.headers:
            self.body = self._read_exactly(int(self.headers["content-length"]))

    def close(self):
        self.sock.close()

    def _fill(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise TimeoutError("no data from the stream in time") from None
        if not data:
            self.closed = True
            raise ConnectionError("the server closed the stream's connection")
        self.raw += data

    def _read_until(self, marker):
        while marker not in self.raw:
            self._fill()
        head, _, self.raw = self.raw.partition(marker)
        return head

    def _read_exactly(self, count):
        while len(self.raw) < count:
            self._fill()
        data, self.raw = self.raw[:count], self.raw[count:]
        return data

    def _dechunk(self):
        """Moves whole chunks from `raw` to `text`; True when something moved."""
        moved = False
        while b"\r\n" in self.raw:
            size_line, _, rest = self.raw.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if len(rest) < size + 2:
                break
            self.raw = rest[size + 2:]
            if size == 0:
                self.ended = True
                return True
            self.text += rest[:size].decode()
            moved = True
        return moved

    def next_event(self):
        """The next event (or a block of comments alone), waiting for it; None once the body ended."""
        while True:
            if "\n\n" in self.text:
                block, _, self.text = self.text.partition("\n\n")
                fields, comments = {}, []
                for line in block.split("\n"):
                    if line.startswith(":"):
                        comments.append(line[1:].strip())
                    else:
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
                return Event(fields, comments)
            if self.ended:
                return None
            if not self._dechunk():
                self._fill()

    def next_named(self, *names, deadline_seconds=10):
        """The next event called one of `names` (`items`, `updated`, `deleted`…), skipping the others."""
        deadline = time.monotonic() + deadline_seconds
        while time.monotonic() < deadline:
            event = self.next_event()
            if event is None:
                raise ConnectionError(f"the stream ended before a {' or '.join(names)} event")
            if event.fields.get("event") in names:
                return event
        raise TimeoutError(f"no {' or '.join(names)} event in time")

    def next_items(self, deadline_seconds=10):
        """The next `items` event, skipping `retry` and comments."""
        return self.next_named("items", deadline_seconds=deadline_seconds)

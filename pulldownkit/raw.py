"""Raw sockets: exact bytes to the server and whatever comes back, for requests no HTTP
library would send, and the health probe built on them."""
import re
import socket

STATUS = re.compile(rb"^HTTP/1\.[01] (\d{3}) ")


def exchange(server, data, timeout=5, shutdown_write=False):
    """Sends raw bytes on a fresh connection and reads until the server closes or goes quiet.

    Returns the bytes received (b"" when the server closed without answering). A reset counts
    as a close."""
    with send_raw(server, data, timeout=timeout, shutdown_write=shutdown_write) as sock:
        return read_until_close(sock, timeout, data)


def send_raw(server, data, timeout=5, shutdown_write=False):
    """A fresh connection with `data` sent on it; the caller reads (read_until_close) and closes."""
    sock = socket.create_connection((server.host, server.port), timeout=timeout)
    try:
        sock.sendall(data)
        if shutdown_write:
            sock.shutdown(socket.SHUT_WR)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sock


def read_until_close(sock, timeout=5, sent=b""):
    """Everything the server sends on `sock` until it closes it; fails after `timeout` s of silence."""
    sock.settimeout(timeout)
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    except ConnectionResetError:
        pass
    except socket.timeout:
        if not received:
            raise AssertionError(f"no answer and no close within {timeout} s for {sent[:120]!r}")
    return received


def free_port():
    """A loopback port nobody listens on now (for a server that must be given one)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def status_of(raw):
    """The status of the first response in `raw`, or None when there is none."""
    match = STATUS.match(raw)
    return int(match.group(1)) if match else None


def healthy(server, timeout=3):
    """True when /healthz answers 200 on a fresh connection."""
    try:
        raw = exchange(server, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                       timeout=timeout)
    except OSError:
        return False
    return status_of(raw) == 200 and b'"status":"ok"' in raw

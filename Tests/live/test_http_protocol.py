"""The HTTP foundation seen from a client: keep-alive, status codes, HEAD, ETags, gzip,
content types, the headers every response carries, and path traversal never reaching a file.

Raw sockets where the exact bytes matter; http.client otherwise.
"""
import base64
import email.utils
import hashlib
import gzip
import http.client
import json
import os
import pathlib
import re
import socket
import urllib.parse

import pytest

from pulldownkit.raw import read_until_close, send_raw
from pulldownkit.server import PUBLIC
from pulldownkit.waiting import wait_until

REPO = pathlib.Path(__file__).resolve().parents[2]
BODY_LIMIT = 64 * 1024


# ---------------------------------------------------------------- helpers

class RawConnection:
    """One TCP connection; sends exact bytes, reads Content-Length framed responses."""

    def __init__(self, server, timeout=5):
        self.sock = socket.create_connection((server.host, server.port), timeout=timeout)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed by the server; buffered {self.buffer!r}")
        self.buffer += chunk

    def read_response(self, head=False):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        header_bytes, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = header_bytes.decode("latin-1").split("\r\n")
        version, status, *_ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        status = int(status)
        length = 0 if head or status in (204, 304) or 100 <= status < 200 else int(headers.get("content-length", ["0"])[0])
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, {k: v[0] for k, v in headers.items()}, body, headers

    def closed_by_server(self):
        """True when the server has closed its side (EOF); waits up to the socket timeout."""
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False


def raw_exchange(server, request_bytes, timeout=5):
    """Sends bytes on a fresh connection and reads everything until the server closes."""
    with send_raw(server, request_bytes, timeout=timeout) as sock:
        return read_until_close(sock, timeout, request_bytes)


def status_of(raw):
    match = re.match(rb"HTTP/1\.[01] (\d{3}) ", raw)
    assert match, f"not an HTTP response: {raw[:200]!r}"
    return int(match.group(1))


def get(server, path, method="GET", headers=None, body=None):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, response, data
    finally:
        conn.close()


def request_line(method, target, *headers):
    lines = [f"{method} {target} HTTP/1.1".encode("latin-1"), b"Host: localhost", b"Connection: close",
             *[h.encode("latin-1") for h in headers]]
    return b"\r\n".join(lines) + b"\r\n\r\n"


# ---------------------------------------------------------------- keep-alive and status codes

def test_two_requests_travel_on_one_connection(server):
    conn = RawConnection(server)
    try:
        conn.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        status1, headers1, body1, _ = conn.read_response()
        assert status1 == 200
        assert headers1.get("connection", "").lower() != "close"
        conn.send(b"GET /item.html HTTP/1.1\r\nHost: localhost\r\n\r\n")
        status2, headers2, body2, _ = conn.read_response()
        assert status2 == 200
        assert body2 == (PUBLIC / "item.html").read_bytes()
        # And a third, pipelined in one write, still on the same socket.
        conn.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /app.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert conn.read_response()[0] == 200
        assert conn.read_response()[2] == (PUBLIC / "app.css").read_bytes()
    finally:
        conn.close()


def test_http_client_reuses_its_socket(server):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
    try:
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        first_socket = conn.sock
        conn.request("GET", "/api/items")
        response = conn.getresponse()
        response.read()
        assert response.status == 200
        assert conn.sock is first_socket, "the connection was reopened"
    finally:
        conn.close()


def test_unknown_path_is_404_problem(server):
    status, response, body = get(server, "/no/such/thing.html")
    assert status == 404
    assert response.getheader("Content-Type") == "application/problem+json"
    assert b'"status":404' in body


@pytest.mark.parametrize("method,path,allow", [
    ("DELETE", "/api/items", "GET, HEAD, POST"),
    ("PUT", "/api/items", "GET, HEAD, POST"),
    ("POST", "/healthz", "GET, HEAD"),
    ("GET", "/api/refresh", "POST"),
])
def test_known_path_with_wrong_method_is_405_with_allow(server, method, path, allow):
    status, response, body = get(server, path, method=method)
    assert status == 405
    assert response.getheader("Allow") == allow
    assert response.getheader("Content-Type") == "application/problem+json"


def test_static_file_with_wrong_method_is_405(server):
    status, response, _ = get(server, "/item.html", method="POST", body=b"")
    assert status == 405
    assert response.getheader("Allow") == "GET, HEAD"


def test_declared_body_over_64k_is_413_and_the_server_still_answers(server):
    conn = RawConnection(server)
    try:
        conn.send(b"POST /api/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {BODY_LIMIT + 1}\r\n\r\n".encode())
        status, headers, body, _ = conn.read_response()
        assert status == 413
        assert headers["content-type"] == "application/problem+json"
        assert conn.closed_by_server(), "the unread body must not be parsed as a next request"
    finally:
        conn.close()
    assert get(server, "/healthz")[0] == 200


def test_declared_body_over_64k_sent_in_full_is_413(server):
    data = raw_exchange(server, b"POST /api/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + f"Content-Length: {BODY_LIMIT + 10}\r\n\r\n".encode() + b"x" * (BODY_LIMIT + 10))
    assert status_of(data) == 413
    assert get(server, "/healthz")[0] == 200


def test_chunked_body_over_64k_is_413_and_the_server_still_answers(server):
    conn = RawConnection(server, timeout=5)
    try:
        piece = b"x" * 16384
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(5)) + b"0\r\n\r\n"
        conn.send(b"POST /api/items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n" + chunks)
        status, headers, body, _ = conn.read_response()
        assert status == 413
        assert b'"status":413' in body
    finally:
        conn.close()
    assert get(server, "/healthz")[0] == 200


def test_body_of_exactly_64k_is_not_refused_for_size(server):
    status, _, _ = get(server, "/api/items", method="POST", body=b" " * BODY_LIMIT,
                       headers={"Content-Type": "application/json"})
    assert status != 413


# ---------------------------------------------------------------- HEAD, ETag, gzip, types

@pytest.mark.parametrize("path", ["/", "/feed.js", "/healthz", "/api/items"])
def test_head_has_headers_and_length_but_no_body(server, path):
    _, get_response, get_body = get(server, path)
    conn = RawConnection(server)
    try:
        # The Host the GET sent: the page and the API write their URLs under it.
        conn.send(f"HEAD {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())
        status, headers, body, _ = conn.read_response(head=True)
        assert status == 200
        assert headers["content-length"] == str(len(get_body))
        assert headers["content-type"] == get_response.getheader("Content-Type")
        # No body: the next response on this connection starts right away.
        conn.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert conn.buffer == b"" or conn.buffer.startswith(b"HTTP/1.1 ")
        next_status, *_ = conn.read_response()
        assert next_status == 200
    finally:
        conn.close()


def every_route(server):
    """Every path the document lists (with an id that exists), the page, a picture of each kind
    the feed names, a file, and paths that name nothing."""
    document = json.loads(get(server, "/api/openapi.json")[2])
    paths = [path.replace("{id}", "1") for path in document["paths"]]
    page = json.loads(get(server, "/api/items?limit=50")[2])
    pictures = {item[field] for item in page["items"] for field in ("avatar",) if item.get(field)}
    pictures |= {item["image"]["url"] for item in page["items"] if item.get("image")}
    pictures = {urllib.parse.urlsplit(url).path for url in pictures}
    return paths + sorted(pictures) + ["/", "/index.html", "/item.html", "/feed.js", "/api/nothing", "/nothing"]


def test_head_to_every_route_sends_no_body_and_leaves_the_connection_usable(server):
    # Found by a keep-alive client: HEAD /api/events sent the last chunk of a chunked body
    # (`0\r\n\r\n`) after its head, which the next answer on the connection began with.
    routes = every_route(server)
    assert "/api/events" in routes and any(path.startswith("/media/") for path in routes)
    for path in routes:
        conn = RawConnection(server)
        try:
            conn.send(f"HEAD {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            status, headers, _, _ = conn.read_response(head=True)
            assert status < 500, path
            if headers.get("connection", "").lower() == "close":
                # A body of unknown length (the event stream): no length stated, and the
                # connection ends right after the head.
                assert "content-length" not in headers and "transfer-encoding" not in headers, path
                assert conn.buffer == b"" and conn.closed_by_server(), path
                continue
            conn.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            while len(conn.buffer) < len(b"HTTP/1.1 "):
                conn._fill()
            assert conn.buffer.startswith(b"HTTP/1.1 200 "), (path, conn.buffer[:40])
            assert conn.read_response()[0] == 200, path
        finally:
            conn.close()


@pytest.mark.parametrize("path", ["/", "/feed.js"])
def test_etag_and_if_none_match_give_304(server, path):
    status, response, body = get(server, path)
    assert status == 200
    etag = response.getheader("ETag")
    assert etag and etag.startswith('"') and etag.endswith('"')
    status, response, body = get(server, path, headers={"If-None-Match": etag})
    assert status == 304
    assert body == b""
    assert response.getheader("ETag") == etag
    status, _, _ = get(server, path, headers={"If-None-Match": f'"other", W/{etag}'})
    assert status == 304
    status, _, body = get(server, path, headers={"If-None-Match": '"stale"'})
    assert status == 200 and body


@pytest.mark.parametrize("path,file", [("/item.html", "item.html"), ("/feed.js", "feed.js")])
def test_gzip_when_asked(server, path, file):
    plain = (PUBLIC / file).read_bytes()
    status, response, body = get(server, path, headers={"Accept-Encoding": "gzip"})
    assert status == 200
    assert response.getheader("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in response.getheader("Vary", "")
    assert int(response.getheader("Content-Length")) == len(body) < len(plain)
    assert gzip.decompress(body) == plain


def test_no_gzip_without_accept_encoding(server):
    plain = (PUBLIC / "feed.js").read_bytes()
    status, response, body = get(server, "/feed.js")
    assert response.getheader("Content-Encoding") is None
    assert "Accept-Encoding" in response.getheader("Vary", "")
    assert body == plain
    status, response, body = get(server, "/feed.js", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert response.getheader("Content-Encoding") is None
    assert body == plain


def test_gzip_etag_revalidates_the_gzip_copy(server):
    _, response, _ = get(server, "/feed.js", headers={"Accept-Encoding": "gzip"})
    gz_etag = response.getheader("ETag")
    _, plain_response, _ = get(server, "/feed.js")
    assert gz_etag != plain_response.getheader("ETag")
    status, _, _ = get(server, "/feed.js", headers={"Accept-Encoding": "gzip", "If-None-Match": gz_etag})
    assert status == 304


@pytest.mark.parametrize("path,content_type", [
    ("/", "text/html; charset=utf-8"),
    ("/index.html", "text/html; charset=utf-8"),
    ("/feed.js", "text/javascript; charset=utf-8"),
    ("/app.css", "text/css; charset=utf-8"),
])
def test_content_types(server, path, content_type):
    status, response, _ = get(server, path)
    assert status == 200
    assert response.getheader("Content-Type") == content_type


# ---------------------------------------------------------------- headers on every response

EVERY_KIND = [
    ("GET", "/", {}),
    ("GET", "/feed.js", {"Accept-Encoding": "gzip"}),
    ("GET", "/api/items", {}),
    ("GET", "/healthz", {}),
    ("GET", "/missing", {}),
    ("DELETE", "/api/items", {}),
    ("GET", "/api/items?limit=%zz", {}),
]


@pytest.mark.parametrize("method,path,headers", EVERY_KIND)
def test_every_response_has_date_and_a_correct_content_length(server, method, path, headers):
    conn = RawConnection(server)
    try:
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        conn.send(f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n".encode())
        status, got, body, all_headers = conn.read_response()
        assert "date" in got
        assert email.utils.parsedate_to_datetime(got["date"]) is not None
        assert len(all_headers["content-length"]) == 1
        assert int(got["content-length"]) == len(body)
        # Exactly that many bytes: nothing trails the body.
        conn.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert conn.read_response()[0] == 200
    finally:
        conn.close()


def test_304_does_not_claim_a_zero_length_representation(server):
    _, response, body = get(server, "/feed.js")
    etag = response.getheader("ETag")
    data = raw_exchange(server, request_line("GET", "/feed.js", f"If-None-Match: {etag}"))
    assert status_of(data) == 304
    head = data.split(b"\r\n\r\n", 1)[0].decode()
    assert "Date:" in head
    lengths = re.findall(r"(?im)^content-length:\s*(\d+)", head)
    # RFC 9110, 8.6: a 304 either omits Content-Length or gives the length of the 200 body.
    assert lengths in ([], [str(len(body))]), head


def test_html_has_csp_nosniff_and_referrer_policy(server):
    _, response, body = get(server, "/")
    csp = response.getheader("Content-Security-Policy")
    assert csp
    directives = {d.split()[0]: d.split()[1:] for d in (part.strip() for part in csp.split(";")) if d}
    assert directives["script-src"] == ["'self'"]
    # The page's own stylesheet, written into it, is allowed by its hash and nothing else inline is.
    styles = re.findall(rb"<style>(.*?)</style>", body, re.S)
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0]).digest()).decode()
    assert directives["style-src"] == ["'self'", f"'sha256-{digest}'"]
    assert directives.get("default-src") == ["'self'"]
    # The demo's pictures are the server's own; a feed's other picture hosts are named one by one.
    assert directives["img-src"] == ["'self'"]
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Referrer-Policy") == "no-referrer"


@pytest.mark.parametrize("path", ["/feed.js", "/api/items", "/missing"])
def test_other_responses_carry_nosniff_too(server, path):
    _, response, _ = get(server, path)
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Referrer-Policy") == "no-referrer"


# ---------------------------------------------------------------- traversal

SECRETS = [b"swift-tools-version", b"root:x:0:0", b"# Pulldown", b"TOP-SECRET-OUTSIDE"]

TRAVERSALS = [
    b"/../Package.swift",
    b"/%2e%2e/Package.swift",
    b"/%2E%2E/Package.swift",
    b"/..%2fPackage.swift",
    b"/..%2FPackage.swift",
    b"/%2e%2e%2fREADME.md",
    b"/..\\Package.swift",
    b"/..%5cPackage.swift",
    b"/%00",
    b"/index.html%00.js",
    b"//etc/passwd",
    b"/%2fetc%2fpasswd",
    b"/../../../../../../etc/passwd",
    b"/./../Package.swift",
    b"/.%2e/Package.swift",
    b"/%252e%252e/Package.swift",
    b"/.git/config",
    b"http://x/../../etc/passwd",
    b"http://localhost/../Package.swift",
]


def assert_refused(data, target):
    status = status_of(data)
    assert status in (400, 404), f"{target!r} gave {status}"
    for secret in SECRETS:
        assert secret not in data, f"{target!r} leaked {secret!r}"


@pytest.mark.parametrize("target", TRAVERSALS, ids=[t.decode("latin-1") for t in TRAVERSALS])
def test_traversal_never_returns_a_file(server, target):
    data = raw_exchange(server, b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert_refused(data, target)


@pytest.fixture
def public_with_links(tmp_path):
    public = tmp_path / "public"
    public.mkdir()
    (public / "index.html").write_text("<!doctype html><title>t</title>")
    (public / "app.js").write_text("export {};\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET-OUTSIDE\n")
    os.symlink(outside / "secret.txt", public / "leak.txt")
    os.symlink(outside, public / "outdir")
    os.symlink("../outside/secret.txt", public / "relative.txt")
    os.symlink("app.js", public / "alias.js")
    return public


@pytest.mark.parametrize("target", [b"/leak.txt", b"/outdir/secret.txt", b"/relative.txt", b"/../outside/secret.txt",
                                    b"/%2e%2e/outside/secret.txt", b"/outdir%2fsecret.txt"])
def test_symlink_leading_outside_the_public_folder_is_not_served(start_server, public_with_links, target):
    server = start_server("--public", str(public_with_links))
    data = raw_exchange(server, b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert_refused(data, target)


def test_symlink_inside_the_public_folder_is_served(start_server, public_with_links):
    server = start_server("--public", str(public_with_links))
    status, _, body = get(server, "/alias.js")
    assert status == 200
    assert body == b"export {};\n"


def test_edited_file_is_served_after_the_reload(start_server, public_with_links):
    server = start_server("--public", str(public_with_links))
    _, first, _ = get(server, "/app.js")
    (public_with_links / "app.js").write_text("export const edited = true;\n")

    def etag_of_the_edit():
        _, response, body = get(server, "/app.js")
        return response.getheader("ETag") if body == b"export const edited = true;\n" else None
    etag = wait_until(etag_of_the_edit, interval=0.2)  # the server looks for changes every second
    assert etag, "the edit was not picked up"
    assert etag != first.getheader("ETag")


def test_several_kib_of_cookies_are_served_and_huge_headers_get_431(server):
    # A browser with a heavy cookie jar on localhost sends several KiB of headers: they must pass.
    _, ok, _ = get(server, "/healthz", headers={"Cookie": "jar=" + "a" * 6000})
    assert ok.status == 200
    connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
    connection.request("GET", "/healthz", headers={"X-Huge": "b" * 20000})
    assert connection.getresponse().status == 431
    _, after, _ = get(server, "/healthz")
    assert after.status == 200


def test_an_http_1_1_request_without_host_is_400_and_http_1_0_needs_none(server):
    # RFC 9112, section 3.2.
    data = raw_exchange(server, b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert status_of(data) == 400
    assert b"application/problem+json" in data
    assert status_of(raw_exchange(server, b"GET /healthz HTTP/1.0\r\n\r\n")) == 200
    assert status_of(raw_exchange(server, request_line("GET", "/healthz"))) == 200

"""A small HTTP client: one request on a fresh connection, exact headers, raw bodies, no cookie
jar, so a caller sees precisely what the server sent. `server` is anything with host and port,
and an ssl.SSLContext in `tls` to speak HTTPS."""
import http.client
import json as jsonlib
import re
import time
import urllib.parse
from dataclasses import dataclass


@dataclass
class Reply:
    status: int
    headers: list  # (name, value) pairs, in order, repeated names kept
    body: bytes
    seconds: float = 0.0

    def header(self, name):
        """The first value of `name` (case-insensitive), or None."""
        values = self.header_all(name)
        return values[0] if values else None

    def header_all(self, name):
        return [value for key, value in self.headers if key.lower() == name.lower()]

    @property
    def content_type(self):
        value = self.header("Content-Type") or ""
        return value.split(";")[0].strip().lower()

    def json(self):
        return jsonlib.loads(self.body)

    def json_or_none(self):
        """The parsed body when it is JSON (problem+json too), else None."""
        return self.json() if self.body and self.content_type.endswith("json") else None

    @property
    def session(self):
        return self.header("X-Session-Id")

    def __repr__(self):
        return f"Reply({self.status}, {self.headers!r}, {self.body[:300]!r})"


def call(server, method, path, body=None, json=None, headers=None, timeout=15):
    """Sends one request on a fresh connection and reads the whole answer. `json` is sent
    as a JSON body with its Content-Type; `body` as it is (str as UTF-8)."""
    headers = dict(headers or {})
    if json is not None:
        body = jsonlib.dumps(json).encode()
        headers.setdefault("Content-Type", "application/json")
    if isinstance(body, str):
        body = body.encode()
    if getattr(server, "tls", None):
        connection = http.client.HTTPSConnection(server.host, server.port, timeout=timeout, context=server.tls)
    else:
        connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return Reply(response.status, response.getheaders(), data, time.monotonic() - started)
    finally:
        connection.close()


def on_server(server, url):
    """The path and query of `url`, an absolute URL of `server` as the server writes its links,
    pictures and Locations (ValueError for any other)."""
    parts = urllib.parse.urlsplit(url)
    scheme = "https" if getattr(server, "tls", None) else "http"
    if parts.scheme != scheme or parts.netloc != f"{server.host}:{server.port}":
        raise ValueError(f"{url} is not on the server at {scheme}://{server.host}:{server.port}")
    return parts.path + (f"?{parts.query}" if parts.query else "")


def http_json(server, method, path, body=None, session=None, *, headers=None, timeout=10, expect=None):
    """One request as a JSON client sends it; returns (status, headers dict with lower-case names,
    parsed JSON body or None). A body that is not bytes is sent as JSON; any body is labelled
    application/json unless `headers` say otherwise. `session` goes in X-Session-Id, as a client
    without cookies sends it. With `expect`, a status other than that one fails at once (a
    test's setup: posting an item, changing a knob)."""
    headers = dict(headers or {})
    if session:
        headers["X-Session-Id"] = session
    if isinstance(body, bytes):
        headers.setdefault("Content-Type", "application/json")
        reply = call(server, method, path, body=body, headers=headers, timeout=timeout)
    else:
        reply = call(server, method, path, json=body, headers=headers, timeout=timeout)
    if expect is not None and reply.status != expect:
        raise AssertionError(f"{method} {path}: {reply.status}, not {expect}: {reply.body[:300]!r}")
    return reply.status, {name.lower(): value for name, value in reply.headers}, reply.json_or_none()


def get(server, path, **kwargs):
    return call(server, "GET", path, **kwargs)


def post(server, path, **kwargs):
    return call(server, "POST", path, **kwargs)


def all_item_ids(server, limit=100):
    """Every item id, newest first, by following the pages' Link headers."""
    ids = []
    path = f"/api/items?limit={limit}"
    while path:
        reply = get(server, path, timeout=10)
        assert reply.status == 200, (path, reply)
        ids.extend(item["id"] for item in reply.json()["items"])
        link = reply.header("Link")
        path = on_server(server, re.match(r"<([^>]+)>", link).group(1)) if link else None
    return ids

"""A small HTTP client for the API tests: exact headers, raw bodies, no cookie jar.

Named test_api_* so it lives with the API tests; it holds no tests itself.
"""
import http.client
import json as jsonlib
import pathlib
import sqlite3
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

    @property
    def session(self):
        return self.header("X-Session-Id")

    def __repr__(self):
        return f"Reply({self.status}, {self.headers!r}, {self.body[:300]!r})"


def call(server, method, path, body=None, json=None, headers=None, timeout=15):
    """Sends one request on a fresh connection and reads the whole answer."""
    import time
    headers = dict(headers or {})
    if json is not None:
        body = jsonlib.dumps(json).encode()
        headers.setdefault("Content-Type", "application/json")
    if isinstance(body, str):
        body = body.encode()
    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return Reply(response.status, response.getheaders(), data, time.monotonic() - started)
    finally:
        connection.close()


def get(server, path, **kwargs):
    return call(server, "GET", path, **kwargs)


def post(server, path, **kwargs):
    return call(server, "POST", path, **kwargs)


def with_session(session, headers=None):
    """Headers that send `session` the way a client without cookies does."""
    merged = dict(headers or {})
    merged["X-Session-Id"] = session
    return merged


def assert_problem(reply, status, *names):
    """The reply is an RFC 9457 problem with `status` whose invalid_params name each of `names`."""
    assert reply.status == status, reply
    assert reply.content_type == "application/problem+json", reply
    problem = reply.json()
    assert problem["status"] == status
    for key in ("type", "title", "detail"):
        assert isinstance(problem[key], str) and problem[key], problem
    named = {param["name"] for param in problem.get("invalid_params", [])}
    for name in names:
        assert name in named, (name, problem)
    return problem


def ids(items):
    return [item["id"] for item in items]


def db_rows(path, query):
    """Runs a query on a stopped server's database file."""
    connection = sqlite3.connect(str(pathlib.Path(path)))
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()

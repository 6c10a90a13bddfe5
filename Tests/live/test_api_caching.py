"""Every answer says how it may be kept: pages and items that can never change, asked for in
the feed they belong to, are immutable; everything that can change, or that names no feed, is
revalidated; and what answers one request alone (a new item's 201, every error) is never stored.
An immutable URL is never answered differently, by any store."""
import json
import re
import urllib.parse

import pytest

from pulldownkit.client import call
from pulldownkit.server import start_server as start_in

IMMUTABLE = "max-age=31536000, immutable"
TOO_LARGE = b'{"title":"' + b"x" * (64 * 1024) + b'"}'


def target(url):
    """The path and query of a URL the server handed out (relative or absolute)."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def next_link(reply):
    link = reply.header("Link")
    return target(re.match(r"<([^>]+)>", link).group(1)) if link else None


def feed_of(server):
    return call(server, "GET", "/api/items?limit=1").json()["feed"]


def test_pages_that_can_never_change_are_immutable_and_the_rest_revalidate(start_server):
    server = start_server(seed="30")
    feed = feed_of(server)
    cases = [
        ("/api/items?limit=5", "no-cache"),                      # the newest page changes with every insert
        ("/api/items?limit=5&before=20", IMMUTABLE),             # items 15..19 are committed for good
        ("/api/items?limit=5&before=31", IMMUTABLE),             # below newest + 1: all committed
        ("/api/items?limit=5&before=40", "no-cache"),            # 31.. may still come
        ("/api/items?limit=5&after=10", IMMUTABLE),              # full, and newer items exist
        ("/api/items?limit=5&after=27", "no-cache"),             # not full yet
        ("/api/items?limit=5&after=25", "no-cache"),             # full, but hasMore can still turn true
    ]
    for path, expected in cases:
        reply = call(server, "GET", f"{path}&feed={feed}")
        assert reply.status == 200, (path, reply)
        assert reply.header("Cache-Control") == expected, path
        assert reply.header("ETag"), path
        assert reply.json()["feed"] == feed
        # The same page without its feed: answered alike, never promised (ids start again in another store).
        unnamed = call(server, "GET", path)
        assert unnamed.status == 200 and unnamed.body == reply.body, path
        assert unnamed.header("Cache-Control") == "no-cache", path
        assert unnamed.header("ETag") == reply.header("ETag"), path


def test_every_link_and_location_names_the_feed(start_server):
    server = start_server(seed="30")
    feed = feed_of(server)
    newest = call(server, "GET", "/api/items?limit=5")
    assert next_link(newest) == f"/api/items?limit=5&before=26&feed={feed}"
    assert next_link(call(server, "GET", "/api/items?limit=5&after=3")) == f"/api/items?limit=5&after=8&feed={feed}"
    posted = call(server, "POST", "/api/items", json={"title": "new"})
    assert target(posted.header("Location")) == f"/api/items/31?feed={feed}"
    assert call(server, "POST", "/api/refresh", json={"after": 29}).json()["feed"] == feed
    assert f'"feed":"{feed}"' in call(server, "GET", "/").body.decode()


def test_an_immutable_page_served_again_is_the_same_and_honours_if_none_match(start_server):
    server = start_server(seed="30")
    path = f"/api/items?limit=5&before=20&feed={feed_of(server)}"
    first = call(server, "GET", path)
    assert first.header("Cache-Control") == IMMUTABLE
    again = call(server, "GET", path)   # from memory this time
    assert again.body == first.body
    assert again.header("ETag") == first.header("ETag")
    assert again.header("Link") == first.header("Link")
    assert call(server, "POST", "/api/items", json={"title": "new"}).status == 201
    assert call(server, "GET", path).body == first.body, "an insert changes nothing below"
    unchanged = call(server, "GET", path, headers={"If-None-Match": first.header("ETag")})
    assert unchanged.status == 304
    assert unchanged.body == b""


def test_an_item_is_immutable_in_its_feed_and_a_missing_one_is_not(start_server):
    server = start_server(seed="3")
    feed = feed_of(server)
    item = call(server, "GET", f"/api/items/2?feed={feed}")
    assert item.status == 200
    assert item.header("Cache-Control") == IMMUTABLE
    assert call(server, "GET", f"/api/items/2?feed={feed}", headers={"If-None-Match": item.header("ETag")}).status == 304
    unnamed = call(server, "GET", "/api/items/2")
    assert unnamed.body == item.body and unnamed.header("Cache-Control") == "no-cache"
    for path in ["/api/items/4", f"/api/items/4?feed={feed}"]:
        missing = call(server, "GET", path)
        assert missing.status == 404
        assert missing.header("Cache-Control") == "no-cache", "item 4 may exist later"


@pytest.mark.parametrize("path", ["/api/items?limit=5&before=3&feed=0123456789abcdef", "/api/items?feed=0123456789abcdef",
                                  "/api/items?after=0&feed=0123456789abcdef", "/api/items/2?feed=0123456789abcdef"])
def test_a_feed_this_server_does_not_serve_is_a_410_never_its_items(start_server, path):
    server = start_server(seed="3")
    for method in ["GET", "HEAD"]:
        gone = call(server, method, path)
        assert gone.status == 410, gone
        assert gone.header_all("Cache-Control") == ["no-store"]
    problem = call(server, "GET", path).json()
    assert problem["type"].endswith("feed-changed")
    assert "start again from the newest page" in problem["detail"]


@pytest.mark.parametrize("value", ["", "abc", "0123456789ABCDEF", "0123456789abcdef0", "0123456789abcdeg"])
def test_a_malformed_feed_is_a_400_naming_it(start_server, value):
    server = start_server(seed="3")
    for path in [f"/api/items?before=2&feed={value}", f"/api/items/2?feed={value}"]:
        reply = call(server, "GET", path)
        assert reply.status == 400, (path, reply)
        assert [param["name"] for param in reply.json()["invalid_params"]] == ["feed"]


def write_data(folder, name, titles, colour):
    """A data file of `titles` (newest first) whose first item has a picture at pics/p.png."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pics").mkdir(exist_ok=True)
    (folder / "pics" / "p.png").write_bytes(b"\x89PNG\r\n\x1a\n" + colour)
    entries = [{"title": title} for title in titles]
    entries[0]["avatar"] = "pics/p.png"
    entries[0]["image"] = {"url": "pics/p.png", "width": 4, "height": 3}
    path = folder / name
    path.write_text(json.dumps(entries))
    return path


def immutable_urls(server):
    """Every URL the server answers `immutable`, with its body: page walks both ways (from the
    links it hands out), every item in its feed, and every picture the items name."""
    found = {}

    def visit(path):
        reply = call(server, "GET", path)
        assert reply.status == 200, (path, reply)
        if reply.header("Cache-Control") == IMMUTABLE:
            found[path] = reply.body
        return reply

    items = []
    path = "/api/items?limit=4"
    while path:
        reply = visit(path)
        items += reply.json()["items"]
        path = next_link(reply)
    feed = feed_of(server)
    path = f"/api/items?limit=4&after=0&feed={feed}"
    while path:
        path = next_link(visit(path))
    for item in items:
        visit(f"/api/items/{item['id']}?feed={feed}")
        for url in [item.get("avatar"), (item.get("image") or {}).get("url")]:
            if url:
                visit(target(url))
    return found


@pytest.mark.parametrize("kind", ["data", "demo"])
def test_no_url_answered_immutable_by_one_store_answers_otherwise_from_another(tmp_path, kind):
    # Ids start again at 1 in every new store: without the feed in the URL, a browser kept the
    # first store's pages and showed them as the second's.
    servers = []
    try:
        for name, colour in [("a", b"red"), ("b", b"blue")]:
            if kind == "data":
                titles = [f"{name} {number}" for number in range(12, 0, -1)]
                args = ["--data", str(write_data(tmp_path / name, "posts.json", titles, colour))]
            else:
                args = []
            servers.append(start_in(tmp_path, *args, db=":memory:", seed=12 if kind == "demo" else 0))
        first, second = servers
        kept = immutable_urls(first)
        assert any("before=" in url for url in kept) and any("after=" in url for url in kept)
        assert any(url.startswith("/api/items/") for url in kept) and any(url.startswith("/media/") for url in kept)
        for url, body in kept.items():
            reply = call(second, "GET", url)
            assert not (200 <= reply.status < 300 and reply.body != body), (url, reply)
    finally:
        for server in servers:
            server.stop()


def test_a_reset_renews_the_feed_and_a_restart_keeps_it(start_server, tmp_path):
    db = tmp_path / "kept.sqlite"
    data = write_data(tmp_path / "a", "posts.json", [f"a {n}" for n in range(12, 0, -1)], b"red")
    server = start_server("--data", str(data), db=str(db))
    feed = feed_of(server)
    page = f"/api/items?limit=4&before=9&feed={feed}"
    kept = call(server, "GET", page)
    assert kept.header("Cache-Control") == IMMUTABLE
    server.stop()
    server = start_server("--data", str(data), db=str(db))
    assert feed_of(server) == feed, "the same store is the same feed"
    assert call(server, "GET", page).body == kept.body
    server.stop()
    other = write_data(tmp_path / "b", "posts.json", [f"b {n}" for n in range(12, 0, -1)], b"blue")
    server = start_server("--data", str(other), "--reset", db=str(db))
    assert feed_of(server) != feed
    assert call(server, "GET", page).status == 410


def test_the_openapi_document_revalidates_with_an_etag(start_server):
    server = start_server(seed="0")
    document = call(server, "GET", "/api/openapi.json")
    assert document.header("Cache-Control") == "no-cache"
    assert document.header("ETag")
    assert call(server, "GET", "/api/openapi.json", headers={"If-None-Match": document.header("ETag")}).status == 304


@pytest.mark.parametrize("method, path, body, status", [
    ("POST", "/api/items", b'{"title":"new"}', 201),
    ("GET", "/api/items?limit=0", None, 400),
    ("POST", "/api/refresh", b'{"after":"x"}', 400),
    ("DELETE", "/api/items", None, 405),
    ("PUT", "/index.html", None, 405),
    ("GET", "/api/items?_fail=503", None, 503),
    ("POST", "/api/items?_fail=503", b'{"title":"not added"}', 503),
    ("GET", "/api/nope", None, 404),
    ("GET", "/nothing-here.txt", None, 404),
    ("POST", "/api/items", TOO_LARGE, 413),
])
def test_answers_to_one_request_and_every_error_are_no_store(start_server, method, path, body, status):
    server = start_server(seed="3")
    reply = call(server, method, path, body=body, headers={"Content-Type": "application/json"})
    assert reply.status == status, reply
    assert reply.header_all("Cache-Control") == ["no-store"], reply


def test_failures_injected_by_the_fail_rate_are_no_store(start_server):
    server = start_server("--fail-rate", "1", seed="3")
    for method, path in [("GET", "/api/items"), ("GET", "/api/items?limit=2&before=3"), ("POST", "/api/refresh")]:
        reply = call(server, method, path)
        assert reply.status == 503, (path, reply)
        assert reply.header_all("Cache-Control") == ["no-store"], (path, reply)

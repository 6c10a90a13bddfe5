"""Every answer says how it may be kept. Items are edited and deleted at any time, so no page and
no item is immutable: they are revalidated (`no-cache`, a strong ETag), and those whose places
can never change, asked for in the feed they belong to, are kept in memory until a change touches
them; what can never change again (a deleted item's 410 in its feed, a picture) is immutable; and
what answers one request alone (a new item's 201, every error) is never stored. An immutable URL
is never answered differently, by any store, nor after any number of edits and deletions."""
import json
import random
import re
import threading
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


def test_every_page_revalidates_and_the_same_page_without_its_feed_is_answered_alike(start_server):
    server = start_server(seed="30")
    feed = feed_of(server)
    for path in ["/api/items?limit=5", "/api/items?limit=5&before=20", "/api/items?limit=5&before=31",
                 "/api/items?limit=5&before=40", "/api/items?limit=5&after=10", "/api/items?limit=5&after=27"]:
        reply = call(server, "GET", f"{path}&feed={feed}")
        assert reply.status == 200, (path, reply)
        assert reply.header("Cache-Control") == "no-cache", path
        assert reply.header("ETag"), path
        assert reply.json()["feed"] == feed
        # The same page without its feed: answered alike, never kept (ids start again in another store).
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


def test_a_kept_page_is_served_again_as_it_was_until_a_change_touches_it(start_server):
    server = start_server(seed="30")
    path = f"/api/items?limit=5&before=20&feed={feed_of(server)}"
    first = call(server, "GET", path)
    again = call(server, "GET", path)   # from memory this time
    assert again.body == first.body
    assert again.header("ETag") == first.header("ETag")
    assert again.header("Link") == first.header("Link")
    assert call(server, "POST", "/api/items", json={"title": "new"}).status == 201
    assert call(server, "PATCH", "/api/items/25", json={"title": "Elsewhere"}).status == 200
    assert call(server, "GET", path).body == first.body, "an insert, or a change above it, changes nothing here"
    unchanged = call(server, "GET", path, headers={"If-None-Match": first.header("ETag")})
    assert unchanged.status == 304
    assert unchanged.body == b""
    assert call(server, "PATCH", "/api/items/17", json={"title": "On the page"}).status == 200
    edited = call(server, "GET", path, headers={"If-None-Match": first.header("ETag")})
    assert edited.status == 200 and edited.json()["items"][2]["title"] == "On the page"


def test_an_item_revalidates_a_missing_one_may_come_and_a_deleted_one_is_gone_for_good(start_server):
    server = start_server(seed="3")
    feed = feed_of(server)
    item = call(server, "GET", f"/api/items/2?feed={feed}")
    assert item.status == 200
    assert item.header("Cache-Control") == "no-cache"
    assert call(server, "GET", f"/api/items/2?feed={feed}", headers={"If-None-Match": item.header("ETag")}).status == 304
    unnamed = call(server, "GET", "/api/items/2")
    assert unnamed.body == item.body and unnamed.header("Cache-Control") == "no-cache"
    for path in ["/api/items/4", f"/api/items/4?feed={feed}"]:
        missing = call(server, "GET", path)
        assert missing.status == 404
        assert missing.header("Cache-Control") == "no-cache", "item 4 may exist later"
    assert call(server, "DELETE", "/api/items/2").status == 204
    gone = call(server, "GET", f"/api/items/2?feed={feed}", headers={"If-None-Match": item.header("ETag")})
    assert gone.status == 410 and gone.header("Cache-Control") == IMMUTABLE
    assert call(server, "GET", "/api/items/2").header("Cache-Control") == "no-cache", "another store may have item 2"


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


def immutable_urls(server, deleted=()):
    """Every URL the server answers `immutable`, with its body: page walks both ways (from the
    links it hands out), every item in its feed (the `deleted` ones too), and every picture the
    items name."""
    found = {}

    def visit(path):
        reply = call(server, "GET", path)
        assert reply.status in (200, 410), (path, reply)
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
    for item_id in [item["id"] for item in items] + list(deleted):
        visit(f"/api/items/{item_id}?feed={feed}")
    for item in items:
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
        assert call(first, "DELETE", "/api/items/5").status == 204
        kept = immutable_urls(first, deleted=[5])
        assert not any(url.startswith("/api/items?") for url in kept), "no page is ever immutable"
        assert [url for url in kept if url.startswith("/api/items/")] == [f"/api/items/5?feed={feed_of(first)}"]
        assert any(url.startswith("/media/") for url in kept)
        for url, body in kept.items():
            reply = call(second, "GET", url)
            assert not (200 <= reply.status < 300 and reply.body != body), (url, reply)
    finally:
        for server in servers:
            server.stop()


def test_every_answer_marked_immutable_while_items_change_is_the_same_afterwards(start_server):
    server = start_server(seed="60")
    stop = threading.Event()
    changed = []

    def churn():
        # Edits and deletions in a fixed order, as fast as they are answered, until the walks end.
        chooser = random.Random(35)
        while not stop.is_set():
            item_id = chooser.randint(1, 60)
            if chooser.random() < 0.3:
                status = call(server, "DELETE", f"/api/items/{item_id}").status
            else:
                status = call(server, "PATCH", f"/api/items/{item_id}", json={"title": f"Edit {len(changed)}",
                                                                               "image": None}).status
            assert status in (200, 204, 410), status
            changed.append(item_id)

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        kept = {}
        for _ in range(3):
            kept.update(immutable_urls(server, deleted=range(1, 61)))
    finally:
        stop.set()
        worker.join()
    assert len(changed) > 20, "the walks ran while items changed"
    assert any(url.startswith("/api/items/") for url in kept), "deleted items' answers were seen"
    for url, body in kept.items():
        assert call(server, "GET", url).body == body, url


def test_a_reset_renews_the_feed_and_a_restart_keeps_it(start_server, tmp_path):
    db = tmp_path / "kept.sqlite"
    data = write_data(tmp_path / "a", "posts.json", [f"a {n}" for n in range(12, 0, -1)], b"red")
    server = start_server("--data", str(data), db=str(db))
    feed = feed_of(server)
    page = f"/api/items?limit=4&before=9&feed={feed}"
    kept = call(server, "GET", page)
    assert kept.status == 200
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

"""Absolute URLs: Link, Location and an item's pictures are written under the scheme and Host the
request reached the server by, or under --public-url behind a proxy; a Host that could carry
anything else into them is refused; kept answers are kept per base URL."""
import pytest

from pulldownkit.client import call, get, post
from pulldownkit.events import Stream
from pulldownkit.raw import exchange, status_of
from test_api_support import assert_problem


def test_every_url_in_an_answer_is_under_the_host_the_request_named(server):
    for host in ["127.0.0.1", "localhost:8080", "PC.local:9000", "[::1]:8080", "192.168.1.20"]:
        base = f"http://{host.lower()}"
        headers = {"Host": host}
        page = get(server, "/api/items?limit=2", headers=headers)
        assert page.header("Link").startswith(f"<{base}/api/items?limit=2&before=49&feed="), host
        assert page.json()["items"][0]["avatar"].startswith(f"{base}/media/demo/avatar-")
        deep = get(server, f"/api/items?limit=2&before=30&feed={page.json()['feed']}", headers=headers)
        assert deep.header("Cache-Control") == "no-cache"   # kept in memory, revalidated
        assert deep.header("Link").startswith(f"<{base}/api/items?limit=2&before=28&feed=")
        assert f'src="{base}/media/demo/avatar-'.encode() in get(server, "/", headers=headers).body
    posted = post(server, "/api/items", json={"title": "Here"}, headers={"Host": "pc.local:9000"})
    assert posted.header("Location").startswith("http://pc.local:9000/api/items/51?feed=")


def test_a_kept_page_is_never_given_to_a_request_that_named_another_host(server):
    feed = get(server, "/api/items").json()["feed"]
    for path in ["/api/items?limit=3", f"/api/items?limit=3&before=20&feed={feed}", "/"]:
        first = get(server, path, headers={"Host": "one.example"})
        second = get(server, path, headers={"Host": "two.example"})
        assert b"one.example" in first.body and b"two.example" not in first.body, path
        assert b"two.example" in second.body and b"one.example" not in second.body, path
        assert first.header("ETag") != second.header("ETag")
        assert get(server, path, headers={"Host": "one.example", "If-None-Match": first.header("ETag")}).status == 304


def test_a_refresh_an_item_and_the_live_feed_write_their_pictures_absolute_too(server):
    item = get(server, "/api/items/50").json()
    assert item["avatar"] == f"{server.url}/media/demo/{item['avatar'].rsplit('/', 1)[1]}"
    assert post(server, "/api/refresh", json={"after": 49}).json()["items"][0]["avatar"] == item["avatar"]
    stream = Stream(server)
    try:
        stream.next_event()  # retry
        added = post(server, "/api/demo/items", json={"count": 1}).json()["items"][0]
        assert added["avatar"].startswith(f"{server.url}/media/demo/")
        assert stream.next_items().data["items"][0]["avatar"] == added["avatar"]
    finally:
        stream.close()


def test_behind_a_proxy_the_public_url_is_every_urls_base(start_server):
    server = start_server("--public-url", "https://Feed.example/", seed="20")
    page = get(server, "/api/items?limit=5", headers={"Host": "10.0.0.5:8080"})
    assert page.header("Link").startswith("<https://feed.example/api/items?limit=5&before=16&feed=")
    assert page.json()["items"][0]["avatar"].startswith("https://feed.example/media/demo/avatar-")
    assert post(server, "/api/items", json={"title": "x"}).header("Location").startswith("https://feed.example/api/items/21?")
    # Its origin is where the page's own pictures are: its policy allows them.
    img = dict(part.strip().split(" ", 1) for part in get(server, "/").header("Content-Security-Policy").split(";"))["img-src"]
    assert img.split() == ["'self'", "https://feed.example"]
    # HTTP/1.0 without Host: the public URL is enough.
    assert status_of(exchange(server, b"GET /api/items HTTP/1.0\r\n\r\n")) == 200
    env = start_server(seed="3", env={"PULLDOWN_PUBLIC_URL": "http://10.1.2.3:81"})
    assert get(env, "/api/items/3").json()["avatar"].startswith("http://10.1.2.3:81/media/demo/")


@pytest.mark.parametrize("value", ["feed.example/app", "ftp://feed.example", "https://feed example"])
def test_a_public_url_that_is_no_origin_stops_the_start(start_server, value):
    with pytest.raises(RuntimeError, match="--public-url"):
        start_server("--public-url", value)


BAD_HOSTS = [b"evil.example/x", b"evil.example>; rel=\"next\"", b"a b", b"user@evil.example", b"evil.example:99999",
             b"evil.example:", b"[::1", b"%65vil.example", b"evil.example?x=", b"evil.example#"]


@pytest.mark.parametrize("host", BAD_HOSTS)
@pytest.mark.parametrize("path", [b"/", b"/api/items", b"/healthz", b"/media/demo/avatar-1.svg"])
def test_a_host_that_is_no_host_is_a_400_problem_and_goes_nowhere(server, host, path):
    raw = exchange(server, b"GET " + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
    assert status_of(raw) == 400, raw[:300]
    assert b"application/problem+json" in raw and b"Host" in raw
    assert host not in raw.split(b"\r\n\r\n", 1)[0], "nothing of it in the answer's head"


def test_two_hosts_or_none_are_refused_and_http_1_0_needs_one_where_it_gets_urls(server):
    assert status_of(exchange(server, b"GET /api/items HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n")) == 400
    assert status_of(exchange(server, b"GET /api/items HTTP/1.1\r\n\r\n")) == 400
    http10 = exchange(server, b"GET /api/items HTTP/1.0\r\n\r\n")
    assert status_of(http10) == 400 and b"--public-url" in http10
    assert status_of(exchange(server, b"GET /healthz HTTP/1.0\r\n\r\n")) == 200
    assert_problem(call(server, "GET", "/api/items", headers={"Host": "a,b"}), 400)

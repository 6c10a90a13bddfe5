"""Every answer says how it may be kept: pages and items that can never change are immutable,
everything that can change is revalidated, and what answers one request alone (a new item's 201,
every error) is never stored."""
import pytest

from pulldownkit.client import call

IMMUTABLE = "max-age=31536000, immutable"
TOO_LARGE = b'{"title":"' + b"x" * (64 * 1024) + b'"}'


def test_pages_that_can_never_change_are_immutable_and_the_rest_revalidate(start_server):
    server = start_server(seed="30")
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
        reply = call(server, "GET", path)
        assert reply.status == 200, (path, reply)
        assert reply.header("Cache-Control") == expected, path
        assert reply.header("ETag"), path


def test_an_immutable_page_served_again_is_the_same_and_honours_if_none_match(start_server):
    server = start_server(seed="30")
    first = call(server, "GET", "/api/items?limit=5&before=20")
    again = call(server, "GET", "/api/items?limit=5&before=20")   # from memory this time
    assert again.body == first.body
    assert again.header("ETag") == first.header("ETag")
    assert again.header("Link") == first.header("Link")
    assert call(server, "POST", "/api/items", json={"title": "new"}).status == 201
    assert call(server, "GET", "/api/items?limit=5&before=20").body == first.body, "an insert changes nothing below"
    unchanged = call(server, "GET", "/api/items?limit=5&before=20", headers={"If-None-Match": first.header("ETag")})
    assert unchanged.status == 304
    assert unchanged.body == b""


def test_an_item_is_immutable_and_a_missing_one_is_not(start_server):
    server = start_server(seed="3")
    item = call(server, "GET", "/api/items/2")
    assert item.status == 200
    assert item.header("Cache-Control") == IMMUTABLE
    assert call(server, "GET", "/api/items/2", headers={"If-None-Match": item.header("ETag")}).status == 304
    missing = call(server, "GET", "/api/items/4")
    assert missing.status == 404
    assert missing.header("Cache-Control") == "no-cache", "item 4 may exist later"


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

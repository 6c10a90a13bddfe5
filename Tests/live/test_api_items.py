"""GET /api/items and /api/items/{id}: keyset pages, Link, after, validation, ETag, 404/405/413."""
import pytest

from pulldownkit.client import call, get, on_server, post
from test_api_support import assert_problem, ids


def test_the_newest_page_lists_items_newest_first_with_the_default_limit_of_10(server):
    reply = get(server, "/api/items")
    assert reply.status == 200
    assert reply.content_type == "application/json"
    page = reply.json()
    assert ids(page["items"]) == list(range(50, 40, -1))
    assert page["limit"] == 10
    assert page["hasMore"] is True


def test_limit_sets_the_page_size_from_1_to_100(server):
    assert ids(get(server, "/api/items?limit=1").json()["items"]) == [50]
    page = get(server, "/api/items?limit=100").json()
    assert page["limit"] == 100
    assert ids(page["items"]) == list(range(50, 0, -1))
    assert page["hasMore"] is False


def test_before_returns_the_items_older_than_the_id_exclusive(server):
    page = get(server, "/api/items?limit=5&before=30").json()
    assert ids(page["items"]) == [29, 28, 27, 26, 25]
    assert page["hasMore"] is True


def test_a_page_with_more_has_a_link_to_the_next_page_exactly_as_specified(server):
    reply = get(server, "/api/items")
    feed = reply.json()["feed"]
    # Absolute, under the address the request reached, so a native client uses it as it is.
    assert reply.header_all("Link") == [f'<{server.url}/api/items?limit=10&before=41&feed={feed}>; rel="next"']
    reply = get(server, "/api/items?limit=7&before=30")
    assert reply.header_all("Link") == [f'<{server.url}/api/items?limit=7&before=23&feed={feed}>; rel="next"']
    reply = get(server, "/api/items?limit=7&before=30", headers={"Host": "pc.local:8080"})
    assert reply.header_all("Link") == [f'<http://pc.local:8080/api/items?limit=7&before=23&feed={feed}>; rel="next"']


def test_the_last_page_has_no_link_and_has_more_false(server):
    reply = get(server, "/api/items?limit=10&before=11")
    page = reply.json()
    assert ids(page["items"]) == list(range(10, 0, -1))
    assert page["hasMore"] is False
    assert reply.header("Link") is None


def test_following_next_links_walks_every_seeded_item_exactly_once(server):
    seen = []
    path = "/api/items?limit=7"
    for _ in range(20):
        reply = get(server, path)
        assert reply.status == 200
        seen += ids(reply.json()["items"])
        link = reply.header("Link")
        if link is None:
            break
        assert link.endswith('>; rel="next"')
        path = on_server(server, link[1:link.index(">")])
    assert seen == list(range(50, 0, -1))


def test_after_returns_the_items_immediately_newer_contiguous_newest_first(server):
    page = get(server, "/api/items?after=10&limit=5").json()
    assert ids(page["items"]) == [15, 14, 13, 12, 11]
    assert page["hasMore"] is True  # 40 newer items exist: the client still has a gap


def test_after_near_the_top_has_no_more_and_no_link(server):
    reply = get(server, "/api/items?after=45&limit=5")
    assert ids(reply.json()["items"]) == [50, 49, 48, 47, 46]
    assert reply.json()["hasMore"] is False
    assert reply.header("Link") is None
    reply = get(server, "/api/items?after=47&limit=5")
    assert ids(reply.json()["items"]) == [50, 49, 48]
    page = get(server, "/api/items?after=50").json()
    assert page == {"items": [], "limit": 10, "hasMore": False, "next": None, "feed": page["feed"], "changes": 50}


def test_after_with_more_links_to_the_next_newer_batch(server):
    reply = get(server, "/api/items?after=10&limit=5")
    assert reply.header_all("Link") == [f'<{server.url}/api/items?limit=5&after=15&feed={reply.json()["feed"]}>; rel="next"']


def test_after_0_is_the_oldest_items(server):
    assert ids(get(server, "/api/items?after=0&limit=3").json()["items"]) == [3, 2, 1]


def test_before_and_after_together_are_the_range_between(server):
    assert ids(get(server, "/api/items?before=20&after=16").json()["items"]) == [19, 18, 17]


BAD_VALUES = ["0", "-1", "abc", "1e3", "99999999999999999999", "", "1.5", "+5", "%20"]


@pytest.mark.parametrize("value", BAD_VALUES + ["101"])
def test_a_bad_limit_is_a_400_problem_naming_limit(server, value):
    assert_problem(get(server, f"/api/items?limit={value}"), 400, "limit")


@pytest.mark.parametrize("value", BAD_VALUES)
def test_a_bad_before_is_a_400_problem_naming_before(server, value):
    assert_problem(get(server, f"/api/items?before={value}"), 400, "before")


@pytest.mark.parametrize("value", [v for v in BAD_VALUES if v != "0"])
def test_a_bad_after_is_a_400_problem_naming_after(server, value):
    assert_problem(get(server, f"/api/items?after={value}"), 400, "after")


@pytest.mark.parametrize("name", ["limit", "before", "after"])
def test_a_repeated_parameter_is_a_400_naming_it(server, name):
    assert_problem(get(server, f"/api/items?{name}=5&{name}=6"), 400, name)


def test_every_bad_parameter_is_named_in_one_400(server):
    problem = assert_problem(get(server, "/api/items?limit=0&before=abc"), 400, "limit", "before")
    assert len(problem["invalid_params"]) == 2


@pytest.mark.parametrize("query", ["_=1733300000", "t=1", "befor=10", "LIMIT=5", "_=1&t=2&x="])
def test_an_unknown_query_parameter_is_ignored(server, query):
    # Cache-busters that jQuery and axios interceptors add; the page is the one without them.
    reply = get(server, f"/api/items?limit=5&{query}")
    assert reply.status == 200
    assert reply.json() == get(server, "/api/items?limit=5").json()
    assert get(server, f"/api/items/7?{query}").json() == get(server, "/api/items/7").json()


def test_a_bad_value_of_a_known_parameter_is_still_a_400_beside_unknown_ones(server):
    problem = assert_problem(get(server, "/api/items?_=1733300000&limit=0"), 400, "limit")
    assert [param["name"] for param in problem["invalid_params"]] == ["limit"]


def test_a_single_item_is_at_api_items_id(server):
    reply = get(server, "/api/items/42")
    assert reply.status == 200
    assert reply.json()["id"] == 42
    assert reply.json() == get(server, "/api/items?before=43&limit=1").json()["items"][0]


@pytest.mark.parametrize("path", ["/api/items/51", "/api/items/0", "/api/items/abc", "/api/items/-1",
                                  "/api/items/99999999999999999999"])
def test_a_missing_or_malformed_item_id_is_a_404_problem(server, path):
    assert_problem(get(server, path), 404)


@pytest.mark.parametrize("path", ["/api/nope", "/api", "/api/", "/api/items/1/extra", "/api/Items"])
def test_an_unknown_api_path_is_a_404_problem(server, path):
    assert_problem(get(server, path), 404)


@pytest.mark.parametrize("method,path,allow", [
    ("DELETE", "/api/items", "GET, HEAD, POST"),
    ("PUT", "/api/items", "GET, HEAD, POST"),
    ("GET", "/api/refresh", "POST"),
    ("POST", "/api/session", "GET, HEAD"),
    ("PUT", "/api/items/1", "DELETE, GET, HEAD, PATCH"),
    ("POST", "/api/openapi.json", "GET, HEAD"),
    ("POST", "/healthz", "GET, HEAD"),
])
def test_a_wrong_method_is_a_405_problem_with_allow(server, method, path, allow):
    reply = call(server, method, path)
    assert_problem(reply, 405)
    assert reply.header("Allow") == allow


def test_head_answers_like_get_without_a_body(server):
    got = get(server, "/api/items")
    head = call(server, "HEAD", "/api/items")
    assert head.status == 200
    assert head.body == b""
    assert head.header("ETag") == got.header("ETag")
    assert head.header("Link") == got.header("Link")
    assert head.header("Content-Length") == got.header("Content-Length")


def test_a_body_over_64_kib_is_a_413_problem(server):
    body = b'{"title":"' + b"x" * (64 * 1024) + b'"}'
    reply = post(server, "/api/items", body=body, headers={"Content-Type": "application/json"})
    assert_problem(reply, 413)
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == 50


def test_a_body_of_exactly_64_kib_is_read_and_validated(server):
    filler = 64 * 1024 - len(b'{"title":""}')
    body = b'{"title":"' + b"x" * filler + b'"}'
    assert len(body) == 64 * 1024
    assert_problem(post(server, "/api/items", body=body, headers={"Content-Type": "application/json"}), 400, "title")


def test_items_answer_with_an_etag_and_if_none_match_gives_304(server):
    first = get(server, "/api/items")
    etag = first.header("ETag")
    assert etag and etag.startswith('"') and etag.endswith('"')
    again = get(server, "/api/items", headers={"If-None-Match": etag})
    assert again.status == 304
    assert again.body == b""
    assert again.header("ETag") == etag
    assert get(server, "/api/items", headers={"If-None-Match": '"something-else"'}).status == 200


def test_the_etag_depends_on_the_query(server):
    assert get(server, "/api/items").header("ETag") != get(server, "/api/items?limit=5").header("ETag")


def test_a_new_item_changes_the_etag(server):
    etag = get(server, "/api/items").header("ETag")
    assert post(server, "/api/items", json={"title": "Fresh"}).status == 201
    reply = get(server, "/api/items", headers={"If-None-Match": etag})
    assert reply.status == 200
    assert reply.header("ETag") != etag
    assert reply.json()["items"][0]["title"] == "Fresh"


def test_an_empty_feed_has_an_empty_page(start_server):
    server = start_server(seed="0")
    reply = get(server, "/api/items")
    assert reply.json() == {"items": [], "limit": 10, "hasMore": False, "next": None, "feed": reply.json()["feed"], "changes": 0}
    assert reply.header("Link") is None

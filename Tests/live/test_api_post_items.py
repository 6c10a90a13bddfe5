"""POST /api/items: 201 with Location, and a 400 naming each bad field otherwise."""
import re

import pytest

from pulldownkit.client import get, on_server, post
from test_api_support import assert_problem, ids, with_session

JSON = {"Content-Type": "application/json"}


def newest_id(server):
    return get(server, "/api/items?limit=1").json()["items"][0]["id"]


def test_a_new_item_is_201_with_location_and_the_item(server):
    reply = post(server, "/api/items", json={"title": "  Hello  ", "body": "Line\r\nnext", "author": "Ana"})
    assert reply.status == 201
    item = reply.json()
    assert item["id"] == 51
    assert item["title"] == "Hello"
    assert item["body"] == "Line\nnext"
    assert item["author"] == "Ana"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", item["createdAt"])
    assert reply.header("Location") == f"{server.url}/api/items/51?feed={get(server, '/api/items').json()['feed']}"


def test_get_of_the_location_returns_the_item(server):
    reply = post(server, "/api/items", json={"title": "Findable", "body": "b"})
    fetched = get(server, on_server(server, reply.header("Location")))
    assert fetched.status == 200
    assert fetched.json() == reply.json()


def test_author_and_body_are_optional(server):
    item = post(server, "/api/items", json={"title": "Only a title"}).json()
    assert item["author"] == "Anonymous"
    assert item["body"] == ""
    item = post(server, "/api/items", json={"title": "Nulls", "body": None, "author": None}).json()
    assert item["author"] == "Anonymous"


def test_limits_are_inclusive(server):
    reply = post(server, "/api/items", json={"title": "t" * 200, "body": "b" * 2000, "author": "a" * 80})
    assert reply.status == 201


def test_the_posted_item_appears_in_the_next_refresh(server):
    session = post(server, "/api/refresh").session
    item = post(server, "/api/items", json={"title": "Pushed by a demo"}).json()
    refresh = post(server, "/api/refresh", headers=with_session(session)).json()
    assert refresh["items"] == [item]
    assert refresh["gap"] is False


@pytest.mark.parametrize("payload,field", [
    ({"title": ""}, "title"),
    ({"title": "   \n\t "}, "title"),
    ({"title": "t" * 201}, "title"),
    ({"title": "ok", "body": "b" * 2001}, "body"),
    ({"title": "ok", "author": "a" * 81}, "author"),
    ({"body": "no title"}, "title"),
    ({"title": 5}, "title"),
    ({"title": ["x"]}, "title"),
    ({"title": "ok", "body": 7}, "body"),
    ({"title": "ok", "author": True}, "author"),
    ({"title": "ok", "author": {"name": "x"}}, "author"),
    ({"title": "ok", "image": {"url": "/p.png", "width": -1, "height": 1}}, "image.width"),
    ({"title": "bell\u0007"}, "title"),
])
def test_an_invalid_field_is_a_400_naming_it_and_nothing_is_stored(server, payload, field):
    assert_problem(post(server, "/api/items", json=payload), 400, field)
    assert newest_id(server) == 50


def test_every_invalid_field_is_named_at_once(server):
    problem = assert_problem(post(server, "/api/items", json={"title": "", "body": "b" * 2001, "author": "a" * 81}),
                             400, "title", "body", "author")
    assert len(problem["invalid_params"]) == 3


@pytest.mark.parametrize("body", [b"{bad json", b'{"title": "x",}', b"[1, 2]", b'"just a string"', b"null",
                                  b"", b'{"title": "\xff\xfe"}'])
def test_a_body_that_is_not_a_json_object_in_utf8_is_a_400(server, body):
    assert_problem(post(server, "/api/items", body=body, headers=JSON), 400)
    assert newest_id(server) == 50


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_wrong_content_type_is_a_400_naming_content_type(server, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    assert_problem(post(server, "/api/items", body=b'{"title": "x"}', headers=headers), 400, "Content-Type")
    assert newest_id(server) == 50


def test_json_with_a_charset_parameter_is_accepted(server):
    reply = post(server, "/api/items", body=b'{"title": "x"}',
                 headers={"Content-Type": "application/json; charset=utf-8"})
    assert reply.status == 201


def test_new_items_get_growing_ids(server):
    first = post(server, "/api/items", json={"title": "one"}).json()["id"]
    second = post(server, "/api/items", json={"title": "two"}).json()["id"]
    assert second > first
    assert ids(get(server, "/api/items?limit=2").json()["items"]) == [second, first]

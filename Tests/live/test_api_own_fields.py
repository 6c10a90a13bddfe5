"""An item's own fields (avatar, image, url, anything else): accepted by POST with the same
checks everywhere, and carried unchanged by every answer that holds the item."""
import re

import pytest

from pulldownkit.client import call, get, on_server, post
from pulldownkit.events import Stream
from test_api_support import assert_problem, with_session

OWN = {"avatar": "/media/a.svg", "url": "https://example.com/post/1",
       "image": {"url": "https://example.com/p.png", "width": 640, "height": 360, "alt": "A hill at dusk"},
       "likes": 12, "user": {"handle": "@ana", "tags": ["x", None, 2.5, True]}, "note": "</script>&"}


def own_fields(item):
    return {key: value for key, value in item.items() if key not in {"id", "title", "body", "author", "createdAt", "version", "editedAt"}}


def test_a_post_keeps_its_own_fields_in_every_answer_that_holds_it(start_server):
    server = start_server(seed="5")
    session = post(server, "/api/refresh").session
    stream = Stream(server)
    stream.next_event()  # retry
    reply = post(server, "/api/items", json={"title": "Mine", **OWN})
    assert reply.status == 201
    item = reply.json()
    # The avatar, a path here, goes out absolute; every other field as it was posted.
    assert own_fields(item) == {**OWN, "avatar": f"{server.url}/media/a.svg"}
    assert list(item)[7:] == list(OWN), "own fields follow the item's, in their order"
    assert get(server, on_server(server, reply.header("Location"))).json() == item
    assert get(server, "/api/items?limit=1").json()["items"] == [item]
    assert get(server, "/api/items?after=5&limit=5").json()["items"] == [item]
    assert post(server, "/api/refresh", headers=with_session(session)).json()["items"] == [item]
    assert stream.next_items().data["items"] == [item]
    page = get(server, "/").body.decode()
    assert re.search(rf'<article [^>]*data-id="6"[^>]*><img class="avatar"[^>]* src="{server.url}/media/a.svg"><h2 id="item-6-t">Mine</h2>', page), \
        "`/` shows it; its own fields, which the page does not draw, are the API's to give"


def test_items_without_own_fields_have_none(start_server):
    server = start_server(seed="3")
    for item in get(server, "/api/items").json()["items"]:
        assert set(item) >= {"id", "title", "body", "author", "createdAt"}
        assert "likes" not in item


@pytest.mark.parametrize("payload,fields", [
    ({"image": {"url": "/p.png", "width": 0, "height": 10}}, ["image.width"]),
    ({"image": {"url": "/p.png", "width": 10}}, ["image.height"]),
    ({"image": {"width": 10, "height": 10, "colour": "red"}}, ["image.colour", "image.url"]),
    ({"image": [1, 2]}, ["image"]),
    ({"avatar": "javascript:alert(1)"}, ["avatar"]),
    ({"url": 7}, ["url"]),
    ({"id": 1}, ["id"]),
    ({"createdAt": "2020-01-01T00:00:00Z"}, ["createdAt"]),
    ({"deep": [[[[[[[[1]]]]]]]]}, ["deep"]),
    ({"filler": "x" * 17000}, ["item"]),
])
def test_a_bad_own_field_is_a_400_naming_it_and_nothing_is_stored(server, payload, fields):
    newest = get(server, "/api/items?limit=1").json()["items"][0]["id"]
    problem = assert_problem(post(server, "/api/items", json={"title": "t", **payload}), 400, *fields)
    assert sorted(p["name"] for p in problem["invalid_params"]) == sorted(fields)
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == newest

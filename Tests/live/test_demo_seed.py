"""A demo that is the same every time: the same --seed gives the same seeded items and the same
items added after them (by the demo API, the generator) in the same order; --seed 0 is the empty
feed, to which nothing is added unless --new-items-every asks."""
import urllib.parse

from pulldownkit.client import call, get
from pulldownkit.events import Stream

LOOKS = ("title", "author", "body", "avatar", "image")


def looks(items):
    """What an item looks like, its pictures by path: each server writes them under its own address."""
    def path(url):
        return url and urllib.parse.urlsplit(url).path
    return [{**{key: item.get(key) for key in LOOKS}, "avatar": path(item.get("avatar")),
             "image": item.get("image") and {**item["image"], "url": path(item["image"]["url"])}} for item in items]


def feed(server):
    return looks(get(server, "/api/items?limit=100").json()["items"])


def added(server, count):
    reply = call(server, "POST", "/api/demo/items", json={"count": count})
    assert reply.status == 201, reply
    return looks(reply.json()["items"])


def test_the_same_seed_gives_the_same_feed_and_the_same_items_after_it(start_server):
    first = start_server(seed="25", db=":memory:")
    second = start_server(seed="25", db=":memory:")
    assert feed(first) == feed(second)
    # Four, then two, against one, then five: the same six in the same order.
    first_added = added(first, 4)[::-1] + added(first, 2)[::-1]
    second_added = added(second, 1)[::-1] + added(second, 5)[::-1]
    assert first_added == second_added
    assert len({item["title"] for item in first_added}) == 6
    assert feed(first) == feed(second)


def test_another_seed_adds_other_items(start_server):
    one = start_server(seed="25", db=":memory:")
    other = start_server(seed="26", db=":memory:")
    assert added(one, 5) != added(other, 5)


def test_the_generator_adds_the_same_items_as_the_demo_api(start_server):
    generated = start_server(seed="10", db=":memory:", new_items_every="0.2")
    by_hand = start_server(seed="10", db=":memory:")
    stream = Stream(generated)  # the generator adds items while someone watches
    try:
        while int(stream.next_items().id) < 13:
            pass
    finally:
        stream.close()
    newest = get(generated, "/api/items?limit=100").json()["items"]
    made = looks(newest[:len(newest) - 10])
    assert made[::-1] == added(by_hand, len(made))[::-1]


def test_seed_0_adds_nothing_over_time_unless_asked(start_server):
    assert call(start_server(seed="0", new_items_every=None), "GET", "/api/demo").json()["newItemsEvery"] == 0
    asked = start_server(seed="0", new_items_every="2")
    assert call(asked, "GET", "/api/demo").json()["newItemsEvery"] == 2

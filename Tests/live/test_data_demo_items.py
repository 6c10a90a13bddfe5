"""With --data loaded, demo items (POST /api/demo/items, the generator) take the shape of the
user's items: copies of the file's entries with their own fields, under new ids and times."""
import json

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from test_api_support import ids
from test_data_file import write

ENTRIES = [{"title": "Harbour at dawn", "likes": 12, "user": {"handle": "@ana"},
            "image": {"url": "https://example.com/h.jpg", "width": 640, "height": 480, "alt": "Boats"}},
           {"title": "Night market", "author": "Bo", "tags": ["food"]}]
OWN = ("likes", "user", "image", "tags")


def own_fields(item):
    return {key: item[key] for key in OWN if key in item}


def test_added_demo_items_are_copies_of_the_files_entries_with_new_ids(start_server, tmp_path):
    server = start_server("--data", str(write(tmp_path, "posts.json", json.dumps(ENTRIES))))
    stream = Stream(server)
    try:
        reply = call(server, "POST", "/api/demo/items", json={"count": 4})
        assert reply.status == 201, reply
        added = reply.json()["items"]
        assert ids(added) == [6, 5, 4, 3]
        templates = {entry["title"]: own_fields(entry) for entry in ENTRIES}
        for item in added:
            assert item["title"] in templates, item
            assert own_fields(item) == templates[item["title"]], item
        pushed = set()
        while pushed != set(ids(added)):
            pushed |= set(ids(stream.next_items().data["items"]))
    finally:
        stream.close()
    assert [i["id"] for i in get(server, "/api/items?limit=4").json()["items"]] == ids(added)


def test_the_generator_makes_items_in_the_files_shape(start_server, tmp_path):
    server = start_server("--data", str(write(tmp_path, "posts.json", json.dumps(ENTRIES))),
                          new_items_every="0.2")
    stream = Stream(server)
    try:
        made = stream.next_items().data["items"]
    finally:
        stream.close()
    templates = {entry["title"]: own_fields(entry) for entry in ENTRIES}
    assert made and all(own_fields(item) == templates[item["title"]] for item in made), made

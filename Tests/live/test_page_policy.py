"""The page's content policy: `/` and `/item.html` allow pictures from their own origin and from
exactly the origins the feed's pictures are on, kept by the store as items arrive (a post, the
data file, --watch), across restarts, and emptied by a reset."""
import json

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from test_data_file import write


def image_sources(server, path="/"):
    policy = get(server, path).header("Content-Security-Policy")
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    return directives["img-src"].split()


def pictured(title, avatar, image=None):
    return {"title": title, "avatar": avatar, **({"image": {"url": image, "width": 4, "height": 3}} if image else {})}


def test_a_post_adds_its_pictures_origins_and_nothing_else(start_server):
    server = start_server(seed="5")
    assert image_sources(server) == image_sources(server, "/item.html") == ["'self'"]
    assert call(server, "POST", "/api/items", json={**pictured("a", "https://cdn.example/a.png", "http://127.0.0.1:9000/p.png"),
                                                    "url": "https://blog.example/post"}).status == 201
    assert call(server, "POST", "/api/items", json=pictured("b", "HTTPS://CDN.EXAMPLE:443/b.png")).status == 201
    expected = ["'self'", "http://127.0.0.1:9000", "https://cdn.example"]
    assert image_sources(server) == image_sources(server, "/item.html") == expected, "an item's url is no picture"
    assert get(server, "/item.html").body == get(server, "/item.html?id=1").body


def test_a_reset_empties_them_and_a_restart_keeps_them(start_server, tmp_path):
    db = tmp_path / "kept.sqlite"
    server = start_server(seed="5", db=db)
    call(server, "POST", "/api/items", json=pictured("a", "https://cdn.example/a.png"))
    server.stop()
    server = start_server(seed="5", db=db)
    assert image_sources(server) == ["'self'", "https://cdn.example"], "kept in the store"
    assert call(server, "POST", "/api/demo/reset").status == 200
    assert image_sources(server) == image_sources(server, "/item.html") == ["'self'"]


def test_the_data_file_and_its_watch_add_theirs(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", json.dumps(pictured("one", "https://avatars.example/1.png")) + "\n")
    server = start_server("--data", str(path), "--watch")
    assert image_sources(server) == ["'self'", "https://avatars.example"]
    stream = Stream(server)
    try:
        stream.next_event()  # open: the next items event is the appended entry's
        with open(path, "a") as file:
            file.write(json.dumps(pictured("two", "/media/x.png", "https://photos.example:8443/2.jpg")) + "\n")
        assert [item["title"] for item in stream.next_items().data["items"]] == ["two"]
    finally:
        stream.close()
    assert image_sources(server) == ["'self'", "https://avatars.example", "https://photos.example:8443"]
    assert image_sources(server, "/item.html") == image_sources(server)

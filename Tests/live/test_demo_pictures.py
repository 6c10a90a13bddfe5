"""The demo feed's pictures: every seeded item has an avatar, a fifth or more an image with its
size and alt text, served by Pulldown itself, all PNG (avatars 96 x 96, images of the stated
size), under absolute URLs, with an ETag and immutable caching; an avatar's SVG name of earlier
versions moves to its PNG for a day."""
import struct

from pulldownkit.client import get, on_server


def seeded(server, limit=15):
    return get(server, f"/api/items?limit={limit}").json()["items"]


def size(png):
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def test_every_seeded_item_has_an_avatar_and_a_fifth_an_image_with_alt_text(start_server):
    server = start_server(seed="15")
    items = seeded(server)
    assert len(items) == 15
    assert all(item["avatar"].startswith(f"{server.url}/media/demo/avatar-") and item["avatar"].endswith(".png")
               for item in items)
    images = [item["image"] for item in items if "image" in item]
    assert len(images) * 5 >= len(items)
    assert all(image["url"].startswith(f"{server.url}/media/demo/image-") for image in images)
    assert len({image["width"] / image["height"] for image in images}) >= 2, "varied aspect ratios"
    assert all(image["alt"] and image["width"] > 0 and image["height"] > 0 for image in images)


def test_pictures_are_png_of_the_stated_size_with_an_etag_and_immutable_caching(start_server):
    server = start_server(seed="15")
    item = next(item for item in seeded(server) if "image" in item)
    for url in [item["image"]["url"], item["avatar"]]:
        reply = get(server, on_server(server, url))
        assert reply.status == 200
        assert reply.header("Content-Type") == "image/png"
        assert reply.header("Cache-Control") == "max-age=31536000, immutable"
        again = get(server, on_server(server, url), headers={"If-None-Match": reply.header("ETag")})
        assert again.status == 304
    assert size(get(server, on_server(server, item["avatar"])).body) == (96, 96)
    assert size(get(server, on_server(server, item["image"]["url"])).body) == (item["image"]["width"], item["image"]["height"])


def test_item_n_gets_the_same_pictures_on_every_run(start_server):
    one, two = start_server(seed="15"), start_server(seed="15")
    first, second = seeded(one), seeded(two)
    assert [(on_server(one, i["avatar"]), i.get("image", {}).get("alt")) for i in first] == \
        [(on_server(two, i["avatar"]), i.get("image", {}).get("alt")) for i in second]
    url = on_server(one, next(i["image"]["url"] for i in first if "image" in i))
    assert get(start_server(seed="1"), url).body == get(start_server(seed="2"), url).body


def test_an_avatars_svg_name_moves_to_its_png_for_a_day(start_server):
    server = start_server(seed="3")
    reply = get(server, "/media/demo/avatar-3.svg")
    assert reply.status == 301
    assert reply.header("Location") == f"{server.url}/media/demo/avatar-3.png"
    assert reply.header("Cache-Control") == "max-age=86400", "not immutable: a later version may answer otherwise"
    assert get(server, on_server(server, reply.header("Location"))).header("Content-Type") == "image/png"
    assert get(server, "/media/demo/avatar-3.svg", headers={"Host": "pc.local:8080"}).header("Location") == \
        "http://pc.local:8080/media/demo/avatar-3.png"


def test_a_name_that_is_no_demo_picture_is_a_404(start_server):
    server = start_server(seed="3")
    for path in ["/media/demo/image-2.png", "/media/demo/avatar-999.svg", "/media/demo/avatar-999.png",
                 "/media/demo/..%2Fimage-1.png", "/media/demo/image-1.svg", "/media/demo/avatar-0.gif", "/media/demo/",
                 "/media/nothing"]:
        assert get(server, path).status == 404, path


def test_the_page_has_an_icon(start_server):
    server = start_server(seed="0")
    reply = get(server, "/favicon.png")
    assert reply.status == 200 and reply.header("Content-Type") == "image/png"
    assert size(reply.body) == (64, 64)
    assert reply.header("Cache-Control") == "no-cache" and reply.header("ETag")
    assert b'<link rel="icon" type="image/png" href="/favicon.png">' in get(server, "/").body

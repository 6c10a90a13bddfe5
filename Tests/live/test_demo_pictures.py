"""The demo feed's pictures: every seeded item has an avatar, a fifth or more an image with its
size and alt text, served by Pulldown itself (avatars as SVG, images as PNG of the stated size)
with an ETag and immutable caching."""
import struct

from pulldownkit.client import get


def seeded(server, limit=15):
    return get(server, f"/api/items?limit={limit}").json()["items"]


def test_every_seeded_item_has_an_avatar_and_a_fifth_an_image_with_alt_text(start_server):
    items = seeded(start_server(seed="15"))
    assert len(items) == 15
    assert all(item["avatar"].startswith("/media/demo/avatar-") for item in items)
    images = [item["image"] for item in items if "image" in item]
    assert len(images) * 5 >= len(items)
    assert len({image["width"] / image["height"] for image in images}) >= 2, "varied aspect ratios"
    assert all(image["alt"] and image["width"] > 0 and image["height"] > 0 for image in images)


def test_pictures_are_of_the_stated_size_with_an_etag_and_immutable_caching(start_server):
    server = start_server(seed="15")
    item = next(item for item in seeded(server) if "image" in item)
    for url, kind in [(item["image"]["url"], "image/png"), (item["avatar"], "image/svg+xml")]:
        reply = get(server, url)
        assert reply.status == 200
        assert reply.header("Content-Type") == kind
        assert reply.header("Cache-Control") == "max-age=31536000, immutable"
        again = get(server, url, headers={"If-None-Match": reply.header("ETag")})
        assert again.status == 304
    assert get(server, item["avatar"]).body.startswith(b"<svg ")
    png = get(server, item["image"]["url"]).body
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (item["image"]["width"], item["image"]["height"])


def test_item_n_gets_the_same_pictures_on_every_run(start_server):
    first, second = seeded(start_server(seed="15")), seeded(start_server(seed="15"))
    assert [(i["avatar"], i.get("image")) for i in first] == [(i["avatar"], i.get("image")) for i in second]
    url = next(i["image"]["url"] for i in first if "image" in i)
    assert get(start_server(seed="1"), url).body == get(start_server(seed="2"), url).body


def test_a_name_that_is_no_demo_picture_is_a_404(start_server):
    server = start_server(seed="3")
    for path in ["/media/demo/image-2.png", "/media/demo/avatar-999.svg", "/media/demo/..%2Fimage-1.png",
                 "/media/demo/image-1.svg", "/media/demo/avatar-0.png", "/media/demo/"]:
        assert get(server, path).status == 404, path

"""Pictures in the feed: boxes reserved from each item's width and height, so a picture arriving
moves nothing while the reader scrolls (a layout-shift PerformanceObserver); lazy loading (no
picture far below the viewport is fetched at first load); a picture that fails is a grey box of
the same size; the server's first page writes the same picture markup as the script, with URLs
absolute; pictures on other hosts the feed names are drawn, and the page's policy refuses any
other. Real touch and wheel input."""
import functools
import http.server
import struct
import threading
import zlib

import pytest

from pulldownkit.client import http_json
from conftest import Hold

# Every layout shift since the page started, whatever input came before it.
RECORD_SHIFTS = """
    window.__shift = 0;
    new PerformanceObserver(l => { for (const e of l.getEntries()) __shift += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
"""
# Each picture in the DOM: its source, its item, its box, and whether it has been drawn.
PICTURES = """() => [...document.querySelectorAll('#feed img')].map(i => { const r = i.getBoundingClientRect();
    return { src: i.getAttribute('src'), id: +i.closest('article').dataset.id, kind: i.className,
             top: r.top + scrollY, width: r.width, height: r.height, loaded: i.complete && i.naturalWidth > 0,
             box: i.closest('article').getBoundingClientRect().width }; })"""
IMAGE_ATTRIBUTES = """a => [...a.querySelectorAll('img')].map(i => Object.fromEntries([...i.attributes].map(x => [x.name, x.value])))"""
# An element's tags and attribute names, its children's too: what markup it is, not what it says.
SHAPE = """a => { const shape = n => `${n.localName}[${[...n.attributes].map(x => x.name).sort()}](${[...n.children].map(shape)})`;
    return shape(a); }"""
FAR_SCREENS = 3  # "far below": more than this many screens under the viewport's bottom


def picture_item(n, **extra):
    return {"title": f"Picture {n}", "body": "A card with a picture.", "author": "Ada Lovelace",
            "avatar": "/media/demo/avatar-0.png",
            "image": {"url": f"/media/demo/image-{n}.png", "width": 1200, "height": 800, "alt": f"Picture number {n}"},
            **extra}


def colours(png):
    """The distinct pixel colours of a PNG as Chromium writes screenshots (8-bit RGB or RGBA)."""
    pos, data, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(png):
        size, tag = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + size]
        pos += 12 + size
        if tag == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            data += body
    bpp = {2: 3, 6: 4}[kind]
    raw, stride = zlib.decompress(data), width * bpp
    prev, found = bytearray(stride), set()
    for y in range(height):
        start = y * (stride + 1)
        kind_of_filter, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind_of_filter == 1:
                line[i] = (line[i] + a) & 255
            elif kind_of_filter == 2:
                line[i] = (line[i] + b) & 255
            elif kind_of_filter == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_of_filter == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        found.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return found


def wait_pictures_drawn(tab):
    """Waits until every picture within a screen of the viewport has arrived (or failed)."""
    tab.page.wait_for_function("""() => [...document.querySelectorAll('#feed img')].every(i => { const r = i.getBoundingClientRect();
        return i.complete || r.top > 2 * innerHeight || r.bottom < -innerHeight; })""")


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_pictures_arriving_while_the_reader_scrolls_move_nothing(start_server, request, screen):
    server = start_server(seed="120")
    tab = request.getfixturevalue(screen)(server)
    tab.page.add_init_script(RECORD_SHIFTS)
    held = Hold(tab.page, "**/media/demo/*")  # the pictures arrive only after their boxes are laid out
    tab.open()
    before = {p["src"]: p for p in tab.page.evaluate(PICTURES)}
    assert before and not any(p["loaded"] for p in before.values())
    served = min(tab.ids())
    for _ in range(8):  # into pages the script built, pictures still held
        tab.swipe(500) if screen == "phone" else tab.page.mouse.wheel(0, 700)
        tab.wait_still()
    waiting = [p for p in tab.page.evaluate(PICTURES) if p["top"] - tab.page.evaluate("scrollY") < tab.page.evaluate("innerHeight")
               and p["id"] < served and not p["loaded"]]
    assert {p["kind"] for p in waiting} == {"pic", "avatar"}, "pictures the script drew wait on screen"
    held.release()
    wait_pictures_drawn(tab)
    for _ in range(6):  # on through pictures that arrive as they come near
        tab.swipe(500) if screen == "phone" else tab.page.mouse.wheel(0, 700)
        tab.wait_still()
        wait_pictures_drawn(tab)
    drawn = tab.page.evaluate(PICTURES)
    assert sum(p["loaded"] for p in drawn) >= 3
    for p in drawn:
        if p["kind"] == "avatar":
            assert (p["width"], p["height"]) == (40, 40)
    assert tab.page.evaluate("__shift") == 0, "a picture moved what the reader sees"
    assert tab.errors == []


def test_pictures_far_below_the_viewport_are_not_fetched_at_first_load(start_server, phone):
    server = start_server("--page-size", "60", seed="80")  # `/` carries 60 articles, a dozen screens
    # Where each picture of `/` is, read from the page as the server wrote it.
    plain = phone(server, java_script_enabled=False)
    plain.page.goto(server.url + "/")
    where = {}
    for p in plain.page.evaluate(PICTURES):
        where[p["src"]] = min(p["top"], where.get(p["src"], p["top"]))
    screen = plain.page.evaluate("innerHeight")
    far = {src for src, top in where.items() if top > (1 + FAR_SCREENS) * screen}
    assert len(far) >= 5, "the first page reaches far below the viewport"

    tab = phone(server).open()
    tab.frames(4)
    fetched = {u for m, u in tab.requests if "/media/" in u}
    assert fetched, "the pictures on screen are fetched"
    assert fetched <= set(where), fetched - set(where)
    assert not fetched & far, f"fetched far below the viewport: {sorted(fetched & far)}"


def test_a_picture_that_fails_is_a_grey_box_of_the_same_size(start_server, desktop):
    server = start_server()
    # Both URLs are on the server but name no picture: they answer 404.
    http_json(server, "POST", "/api/items", picture_item(3, avatar="/media/demo/avatar-999.png"), expect=201)
    for scripted in (False, True):  # as the server wrote it, and once the script has the page
        tab = desktop(server, java_script_enabled=scripted, color_scheme="light")
        tab.page.goto(server.url + "/")
        img = tab.page.locator("#feed img.pic")
        img.wait_for()
        tab.page.wait_for_function("() => [...document.querySelectorAll('#feed img')].every(i => i.complete)")
        box = img.bounding_box()
        width = tab.page.eval_on_selector("#feed article", "a => a.clientWidth - parseFloat(getComputedStyle(a).paddingLeft)"
                                                           " - parseFloat(getComputedStyle(a).paddingRight)")
        assert abs(box["width"] - width) <= 1 and abs(box["height"] - width * 800 / 1200) <= 1, box
        inner = {"x": box["x"] + 4, "y": box["y"] + 4, "width": box["width"] - 8, "height": box["height"] - 8}
        assert colours(tab.page.screenshot(clip=inner)) == {bytes([0xe3, 0xe5, 0xe8])}, \
            "one neutral grey: no broken-image icon, no alt text drawn over it"
        avatar = tab.page.locator("#feed img.avatar").bounding_box()
        assert (avatar["width"], avatar["height"]) == (40, 40)
        middle = {"x": avatar["x"] + 12, "y": avatar["y"] + 12, "width": 16, "height": 16}
        assert colours(tab.page.screenshot(clip=middle)) == {bytes([0xe3, 0xe5, 0xe8])}
        assert tab.page.get_attribute("#feed img.pic", "alt") == "Picture number 3", "its words stay for screen readers"


def test_the_first_page_the_server_writes_carries_the_pictures_as_the_script_builds_them(start_server, phone):
    server = start_server()
    tricky = 'A "quoted" <b>bold</b> & \'apostrophe\' alt'
    for n in range(1, 13):  # 12 items: 10 come with `/`, the script builds the other 2
        image = {"url": f"/media/demo/image-1.png?n={n}&b=2", "width": 900 + n, "height": 1600, "alt": tricky}
        http_json(server, "POST", "/api/items", picture_item(n, image=image), expect=201)
    plain = phone(server, java_script_enabled=False)
    plain.page.goto(server.url + "/")
    served = plain.page.eval_on_selector("#feed article[data-id='12']", IMAGE_ATTRIBUTES)
    assert served == [
        {"class": "avatar", "loading": "lazy", "decoding": "async", "width": "40", "height": "40", "alt": "",
         "src": f"{server.url}/media/demo/avatar-0.png"},
        {"class": "pic", "loading": "lazy", "decoding": "async", "width": "912", "height": "1600", "alt": tricky,
         "src": f"{server.url}/media/demo/image-1.png?n=12&b=2"}]

    tab = phone(server).open()
    assert tab.page.eval_on_selector("#feed article[data-id='12']", IMAGE_ATTRIBUTES) == served, \
        "the script takes the server's pictures over as they are"
    adopted = tab.page.eval_on_selector("#feed article[data-id='12']", SHAPE)
    tab.scroll_to_end()  # the last page is in: once more to the end, where the script's articles are
    tab.page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    tab.page.wait_for_selector("#feed article[data-id='2']")
    built = tab.page.eval_on_selector("#feed article[data-id='2']", IMAGE_ATTRIBUTES)
    assert [{k: v for k, v in i.items() if k not in ("src", "width")} for i in built] == \
        [{k: v for k, v in i.items() if k not in ("src", "width")} for i in served]
    assert built[1]["src"] == f"{server.url}/media/demo/image-1.png?n=2&b=2" and built[1]["width"] == "902"
    assert tab.page.eval_on_selector("#feed article[data-id='2']", SHAPE) == adopted, "the same markup, localised alike"
    assert tab.errors == []


def test_a_picture_url_that_is_neither_http_nor_a_path_here_is_never_drawn(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server)

    def poison(route):  # what a hostile or broken API could answer
        reply = route.fetch()
        page = reply.json()
        for item, url in zip(page["items"], ["javascript:alert(1)", "data:image/svg+xml,<svg/>", "//evil.example/x.svg"] * 4):
            item["avatar"] = url
            item["image"] = {"url": url, "width": 10, "height": 10}
        route.fulfill(response=reply, json=page)
    tab.page.route("**/api/items?before=*", poison)
    tab.open()
    tab.scroll_to_end()
    assert tab.page.eval_on_selector_all("#feed article[data-id='5'] img, #feed article[data-id='1'] img",
                                         "is => is.length") == 0
    assert tab.page.eval_on_selector_all("#feed img", "(is, base) => is.filter(i => !i.getAttribute('src').startsWith(base)).length",
                                         f"{server.url}/media/") == 0
    assert tab.errors == []


@pytest.fixture
def picture_host(tmp_path):
    """Pictures on another origin: a PNG served by a small server on a port of its own, as a
    user's items point at their own image hosts. Its `http://127.0.0.1:PORT` and `http://localhost:PORT`."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "p.png").write_bytes(tiny_png())

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    yield f"http://127.0.0.1:{port}", f"http://localhost:{port}"
    httpd.shutdown()
    httpd.server_close()


def tiny_png():
    """A 2 x 2 grey PNG."""
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    rows = b"".join(b"\x00" + b"\x80\x80\x80" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_pictures_on_the_hosts_the_feed_names_are_drawn_and_the_policy_refuses_nothing(start_server, desktop, picture_host):
    numeric, named = picture_host
    server = start_server(seed="5")
    http_json(server, "POST", "/api/items", picture_item(1, avatar=f"{named}/p.png",
                                                         image={"url": f"{numeric}/p.png", "width": 800, "height": 450}),
              expect=201)
    tab = desktop(server)
    tab.context.add_init_script("window.__refused = []; addEventListener('securitypolicyviolation',"
                                " e => __refused.push(e.violatedDirective + ' ' + e.blockedURI));")
    tab.open()
    tab.page.wait_for_function("() => [...document.querySelectorAll('#feed article[data-id=\"6\"] img')].every(i => i.complete)")
    drawn = tab.page.eval_on_selector_all("#feed article[data-id='6'] img", "is => is.map(i => [i.src, i.naturalWidth > 0])")
    assert drawn == [[f"{named}/p.png", True], [f"{numeric}/p.png", True]]
    # A violation is reported by an event of its own, queued as it happens: one made now, on
    # purpose, comes after any the page's icon and pictures made, and is the last to wait for.
    tab.page.evaluate("() => { new Image().src = 'http://refused.invalid/p.png'; }")
    tab.page.wait_for_function("() => __refused.some(r => r.includes('refused.invalid'))")
    assert tab.page.evaluate("__refused") == ["img-src http://refused.invalid/p.png"], \
        "the favicon (this server's) and the feed's pictures alike"
    assert [error for error in tab.errors if "refused.invalid" not in error] == [], "the one refusal said, nothing else"

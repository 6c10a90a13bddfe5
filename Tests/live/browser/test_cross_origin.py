"""A front end on another origin, as a developer runs one (a dev server on localhost:5173 calling
the demo backend on localhost:8080): a real page served on another port, in real Chromium, pages,
refreshes and listens without any flag; it sends credentials only to a server that lists it with
--cors-origin; and it cannot steer the demo, neither by fetch nor by a form it submits."""
import functools
import http.server
import threading

import pytest

from pulldownkit.client import http_json
from pulldownkit.page import TIMEOUT_MS

FRONT_END = b"<!doctype html><meta charset=utf-8><title>Another origin</title><p>A front end on another port."


@pytest.fixture
def front_end(tmp_path):
    """A static page served on a port of its own: `http://localhost:PORT/`, another origin than any server's."""
    (tmp_path / "front").mkdir()
    (tmp_path / "front" / "index.html").write_bytes(FRONT_END)
    handler = functools.partial(QuietHandler, directory=str(tmp_path / "front"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def open_front_end(browser, front_end):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    console = []
    page.on("console", lambda m: console.append(m.text))
    page.goto(front_end + "/")
    return context, page, console


def on_localhost(server):
    """The API as a front end names it: localhost, the way a dev server's config writes it."""
    return f"http://localhost:{server.port}"


# Each call gives back what a front end reads: status, the headers CORS lets it see, the body.
FETCH = """async ([url, init]) => {
    try {
        const r = await fetch(url, init);
        const headers = Object.fromEntries(['link', 'etag', 'x-session-id', 'location', 'content-type']
            .map(h => [h, r.headers.get(h)]));
        return { status: r.status, headers, body: await r.json() };
    } catch (e) { return { error: String(e) }; }
}"""


def test_a_front_end_on_another_port_pages_refreshes_and_listens_without_a_flag(start_server, browser, front_end):
    server = start_server(seed="30")
    api_url = on_localhost(server)
    context, page, _ = open_front_end(browser, front_end)
    try:
        first = page.evaluate(FETCH, [f"{api_url}/api/items?limit=5", {}])
        assert first["status"] == 200
        assert [item["id"] for item in first["body"]["items"]] == [30, 29, 28, 27, 26]
        assert first["headers"]["etag"], "ETag is exposed"
        feed = first["body"]["feed"]
        assert first["headers"]["link"] == f'<{api_url}/api/items?limit=5&before=26&feed={feed}>; rel="next"', "Link is exposed"
        assert first["body"]["items"][0]["avatar"].startswith(f"{api_url}/media/demo/"), "pictures the page can load as they are"
        # The next page, by the URL the Link header gave: absolute, so it is used as it is.
        nxt = page.evaluate(FETCH, [first["headers"]["link"][1:].split(">")[0], {}])
        assert [item["id"] for item in nxt["body"]["items"]] == [25, 24, 23, 22, 21]
        # A preflighted POST: JSON, and the session in a header instead of a cookie.
        refresh = page.evaluate(FETCH, [f"{api_url}/api/refresh", {
            "method": "POST", "headers": {"Content-Type": "application/json"}, "body": '{"after": 25}'}])
        assert refresh["status"] == 200 and [i["id"] for i in refresh["body"]["items"]][-1] == 26
        session = refresh["headers"]["x-session-id"]
        assert session, "X-Session-Id is exposed"
        again = page.evaluate(FETCH, [f"{api_url}/api/refresh", {
            "method": "POST", "headers": {"Content-Type": "application/json", "X-Session-Id": session}, "body": "{}"}])
        assert again["status"] == 200 and again["headers"]["x-session-id"] == session
        state = page.evaluate(FETCH, [f"{api_url}/api/session", {"headers": {"X-Session-Id": session}}])
        assert state["body"]["refreshCount"] == 2, "the session holds without cookies"
        posted = page.evaluate(FETCH, [f"{api_url}/api/items", {
            "method": "POST", "headers": {"Content-Type": "application/json"}, "body": '{"title": "From the front end"}'}])
        assert posted["status"] == 201 and posted["headers"]["location"] == f"{api_url}/api/items/31?feed={feed}"
        problem = page.evaluate(FETCH, [f"{api_url}/api/items?limit=0", {}])
        assert problem["status"] == 400 and problem["body"]["invalid_params"][0]["name"] == "limit", "errors are readable too"

        # The live feed: EventSource from another origin, without credentials, from the newest
        # item it holds (a stream without a cursor is a mistake the doctor reports).
        page.evaluate("""url => { window.__events = []; const s = new EventSource(url);
            s.addEventListener('items', e => __events.push(JSON.parse(e.data)));
            window.__open = new Promise(r => s.addEventListener('open', r)); }""",
                      f"{api_url}/api/events?after={posted['body']['id']}")
        page.evaluate("() => __open")
        http_json(server, "POST", "/api/items", {"title": "Pushed live"}, expect=201)
        page.wait_for_function("() => __events.length > 0")
        live = page.evaluate("() => __events[0]")
        assert [i["title"] for i in live["items"]] == ["Pushed live"] and live["gap"] is False
    finally:
        context.close()


def test_credentials_go_only_to_a_server_that_lists_the_origin(start_server, browser, front_end):
    context, page, console = open_front_end(browser, front_end)
    try:
        plain = start_server(seed="3")
        refused = page.evaluate(FETCH, [f"{on_localhost(plain)}/api/session", {"credentials": "include"}])
        assert "error" in refused, "a credentialed request to a server that does not list the origin fails"
        assert any("credentials mode is 'include'" in line for line in console), console

        listing = start_server("--cors-origin", front_end, seed="3")
        url = on_localhost(listing)
        first = page.evaluate(FETCH, [f"{url}/api/refresh", {"method": "POST", "credentials": "include"}])
        assert first["status"] == 200
        state = page.evaluate(FETCH, [f"{url}/api/session", {"credentials": "include"}])
        assert state["status"] == 200
        assert state["body"]["refreshCount"] == 1, "the cookie the refresh set came back"
        assert state["headers"]["x-session-id"] == first["headers"]["x-session-id"]
    finally:
        context.close()


def test_a_page_of_another_origin_cannot_steer_the_demo(start_server, browser, front_end):
    server = start_server(seed="3")
    url = on_localhost(server)
    context, page, _ = open_front_end(browser, front_end)
    try:
        before = http_json(server, "GET", "/api/demo", expect=200)[2]
        patched = page.evaluate(FETCH, [f"{url}/api/demo", {
            "method": "PATCH", "headers": {"Content-Type": "application/merge-patch+json"}, "body": '{"failRate": 1}'}])
        assert "error" in patched, "the preflight is refused"
        # Requests that need no preflight: a POST with no body (one demo item) or a text/plain one.
        for init in [{"method": "POST"}, {"method": "POST", "body": '{"count": 5}'}]:
            simple = page.evaluate(FETCH, [f"{url}/api/demo/items", init])
            assert simple["status"] == 403 and "--demo-token" in simple["body"]["detail"], init
        # Forms posted into a frame, an empty one and a text/plain one: no script reads the
        # answers, but what they asked would still be done.
        for fields in [{}, {'{"count": 5, "x": "': '"}'}]:
            page.evaluate("""([url, fields]) => { const f = document.createElement('iframe'); f.name = 'sink';
                document.body.append(f);
                const form = Object.assign(document.createElement('form'), { method: 'POST', action: url, target: 'sink',
                    enctype: 'text/plain' });
                for (const [name, value] of Object.entries(fields))
                    form.append(Object.assign(document.createElement('input'), { name, value }));
                document.body.append(form); window.__posted = new Promise(r => f.addEventListener('load', r)); form.submit(); }""",
                          [f"{url}/api/demo/items", fields])
            page.evaluate("() => __posted")
            page.evaluate("() => { document.querySelector('iframe').remove(); document.querySelector('form').remove(); }")
        assert http_json(server, "GET", "/api/demo", expect=200)[2] == before
        assert [i["id"] for i in http_json(server, "GET", "/api/items?limit=10", expect=200)[2]["items"]] == [3, 2, 1], \
            "no demo item was added"
    finally:
        context.close()

"""Browser fixtures: Debian's Chromium driven by Playwright (no browser download).

`phone` is a touch-screen page (CDP touch input), `desktop` a mouse page, each a Tab of
pulldownkit.page: gestures through real input, never through page functions, and waits on
events. axe-core (the copy the axe-playwright-python package ships) checks what the page shows
for accessibility.
"""
import os
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from pulldownkit import page
from pulldownkit.browser import CHROMIUM, DESKTOP, PHONE, launch
from pulldownkit.doctor import browser_findings
from pulldownkit.page import Hold  # noqa: F401 (the tests import it from here)

AXE = Axe()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="session", autouse=True)
def the_page_is_the_reference_client():
    """The page's own requests are the worked example of doing it right: at the end of the browser
    suite, the client doctor of every server the browser tests started (and that still ran at the
    end of its test) has no finding for a Chromium client."""
    found = []
    yield found
    assert not found, "the client doctor found the page doing wrong:\n" + "\n".join(found)


@pytest.fixture
def start_server(start_server, the_page_is_the_reference_client, request):
    """The live tests' start_server; before its servers stop, what their doctors say of the page."""
    started = []

    def start(*args, **kwargs):
        server = start_server(*args, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            the_page_is_the_reference_client.extend(f"{request.node.nodeid}: {line}" for line in browser_findings(server))


class Tab(page.Tab):
    """The page's driver (pulldownkit.page), and what axe-core finds wrong with what it shows."""

    def violations(self):
        """What axe-core finds wrong with the page as it is now: ["rule: targets", …]."""
        found = AXE.run(self.page).response["violations"]
        return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in found]

    def read_feed(self):
        """Every id of the feed, top to bottom, read by scrolling through it a screen at a time.

        Each screenful's articles must be newest first and overlap the last screenful, so an id shown
        twice or a hole between windows fails here."""
        self.page.evaluate("() => scrollTo(0, 0)")
        seen = []
        while True:
            self.frames()
            seen = merge_window(seen, self.ids())
            if self.page.evaluate("() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1"):
                return seen
            self.page.evaluate("() => scrollBy(0, innerHeight)")

    def scroll_to_end(self, text="No more items"):
        """Scrolls to the bottom, and there again as pages come in, until the row under the feed
        says `text` (the feed's end)."""
        self.page.wait_for_function("""t => {
            if (document.getElementById('more-text').textContent === t) return true;
            scrollTo(0, document.documentElement.scrollHeight);
            return false;
        }""", arg=text, polling=100)


def without_feed(tab):
    """Serves `/` as the server does when its store does not answer: no articles, no data, so the
    script asks for the first page itself."""
    def strip(route):
        page = route.fetch()
        html = re.sub(r'(role="feed"[^>]*>).*?</script>', r"\1", page.text(), count=1, flags=re.S)
        assert "<article" not in html and "first-page" not in html
        route.fulfill(response=page, body=html)
    tab.page.route(tab.server.url + "/", strip)


def merge_window(seen, window, upward=False):
    """`seen` (ids top to bottom) continued by the ids of a window in the DOM, which must be strictly
    descending and overlap `seen` at its bottom end (at its top end when reading `upward`)."""
    assert window == sorted(set(window), reverse=True), f"not newest first, or twice: {window}"
    if not seen:
        return list(window)
    edge = seen[0] if upward else seen[-1]
    assert edge in window, f"a hole: {edge} not in the next window {window[:3]}…{window[-3:]}"
    at = window.index(edge)
    if upward:
        assert seen[:len(window) - at] == window[at:], "the window disagrees with what was read"
        return window[:at] + seen
    assert seen[len(seen) - at - 1:] == window[:at + 1], "the window disagrees with what was read"
    return seen + window[at + 1:]


def _tabs(browser, base):
    """Yields make(server, **extra) for a fixture; closes every context it made afterwards."""
    contexts = []

    def make(server, **extra):
        """A new page on `server`; extra context options, e.g. reduced_motion="reduce"."""
        context = browser.new_context(**base, **extra)
        contexts.append(context)
        return Tab(context, server)

    yield make
    for c in contexts:
        c.close()


@pytest.fixture
def phone(browser):
    """Returns make(server, **context_options) -> Tab on a 390x844 touch screen."""
    yield from _tabs(browser, PHONE)


@pytest.fixture
def desktop(browser):
    """Returns make(server, **context_options) -> Tab on a 1280x800 mouse screen."""
    yield from _tabs(browser, DESKTOP)

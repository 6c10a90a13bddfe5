"""Browser fixtures: Debian's Chromium driven by Playwright (no browser download).

`phone` is a touch-screen page (CDP touch input), `desktop` a mouse page. Gestures go through
real input (CDP Input.dispatchTouchEvent, page.mouse), never through page functions. axe-core
(the copy the axe-playwright-python package ships) checks what the page shows for accessibility.
"""
import os
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from pulldownkit.browser import CHROMIUM, DESKTOP, PHONE, launch, wait_feed_idle
from pulldownkit.touch import Finger

TIMEOUT_MS = 10_000
AXE = Axe()
# Where the panel state `s` was recorded from index `from` on, plus one; else, when it is the state
# now, the record's length; else false. A page loaded again has no record until `open`.
PASSED = """([s, from]) => { const r = window.__states || [], i = r.indexOf(s, from);
    return i >= 0 ? i + 1 : document.querySelector('.ptr').dataset.state === s && Math.max(r.length, 1); }"""
# The row under the feed, the last article above it and the spacer between them, where the feed
# ends; the gap an article keeps below itself; the viewport and the sticky bar's bottom.
END = """() => {
    const arts = document.querySelectorAll('#feed article'), last = arts[arts.length - 1];
    const box = n => n.getBoundingClientRect();
    return { last: +last.dataset.id, lastBottom: box(last).bottom, moreTop: box(document.getElementById('more')).top,
             moreBottom: box(document.getElementById('more-text')).bottom,
             spacer: box(document.getElementById('feed').lastElementChild).height,
             gap: parseFloat(getComputedStyle(last).marginBottom), viewport: innerHeight,
             bar: box(document.querySelector('.bar')).bottom };
}"""


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


class Tab:
    """A page on a server, with the requests it made, its dialogs and errors, and gestures."""

    def __init__(self, context, server):
        self.context = context
        self.server = server
        self.page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.requests, self.dialogs, self.errors, self.console = [], [], [], []
        self.page.on("request", lambda r: self.requests.append((r.method, r.url)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)
        self.finger = Finger(self.page)

    def open(self, query="", wait_items=True):
        self.page.goto(self.server.url + "/" + query)
        if wait_items:
            self.page.wait_for_selector("#feed article")
            wait_feed_idle(self.page)
        # The script has made its panel: a Chinese page's runs on once its texts are fetched.
        self.page.wait_for_selector(".ptr", state="attached")
        self.page.evaluate("""() => {
            const panel = document.querySelector('.ptr');
            window.__states = [panel.dataset.state];
            window.__times = [performance.now()];
            new MutationObserver(() => {
                const s = panel.dataset.state;
                if (__states[__states.length - 1] !== s) { __states.push(s); __times.push(performance.now()); }
            }).observe(panel, { attributes: true, attributeFilter: ['data-state'] });
            // A scroll (a fling, a smooth wheel) is under way until its scrollend; one the page
            // makes without a scrollend (content that shrank under it) is over after half a second.
            window.__moving = false;
            window.__scrolled = 0;
            addEventListener('scroll', () => { __moving = true; __scrolled = performance.now(); });
            addEventListener('scrollend', () => { __moving = false; });
        }""")
        self.seen = 1  # the first recorded state is the one before anything happened
        return self

    def _console(self, message):
        self.console.append(message.text)
        if message.type == "error":
            self.errors.append(message.text)

    # What the page shows.
    def state(self):
        return self.page.get_attribute(".ptr", "data-state")

    def states(self):
        return self.page.evaluate("window.__states")

    def lasted(self, state):
        """How long (ms, the page's clock) the panel stayed in `state` the first time it was in it."""
        return self.page.evaluate("s => { const i = __states.indexOf(s); return __times[i + 1] - __times[i]; }", state)

    def wait_still(self):
        """Waits until the page's scrolling has ended (its scrollend event: a fling or a smooth
        wheel scroll has come to rest) and the window has followed."""
        self.page.wait_for_function("() => !__moving || performance.now() - __scrolled > 500")
        self.frames()

    def status(self):
        return self.page.text_content("[role=status]")

    def wait_state(self, state, timeout=TIMEOUT_MS):
        """Waits until the panel is in `state`, or has been since the last wait: read from the
        recorded states too, so one that came and went between two looks (a quick refresh while
        the machine is busy) is not missed. Waits that follow each other go down the record."""
        self.seen = self.page.wait_for_function(PASSED, arg=[state, self.seen], timeout=timeout).json_value()

    def refresh_by(self, act, *args, timeout=TIMEOUT_MS, **kwargs):
        """Does `act(*args, **kwargs)` (a click, a key, a pull) and waits for the refresh it starts
        to end: since then the panel has shown `refreshing` and is `idle` again. Waiting for `idle`
        alone would return at once, the panel being idle until the act takes effect."""
        shown = len(self.states())
        act(*args, **kwargs)
        self.page.wait_for_function(
            "n => { const s = __states.slice(n); return s.includes('refreshing') && s.at(-1) === 'idle'; }",
            arg=shown, timeout=timeout)

    def ids(self):
        """The ids of the articles in the DOM now: only the window around the viewport."""
        return [int(x) for x in self.page.eval_on_selector_all("#feed article", "as => as.map(a => a.dataset.id)")]

    def frames(self, n=2):
        """Waits for `n` animation frames: the window has followed the last scroll."""
        self.page.evaluate("n => new Promise(r => { const f = () => --n ? requestAnimationFrame(f) : r(); requestAnimationFrame(f); })", n)

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

    def end(self):
        """Where the feed ends on screen (END): the last article, the row under it, the spacer."""
        return self.page.evaluate(END)

    def violations(self):
        """What axe-core finds wrong with the page as it is now: ["rule: targets", …]."""
        found = AXE.run(self.page).response["violations"]
        return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in found]

    def swipe(self, dy, x=200, y=600, steps=6):
        """A finger flick `dy` px up the screen (scrolling down), then lifted: real touch scrolling."""
        self.finger.down(x, y)
        self.finger.drag(x, y, y - dy, steps)
        self.finger.up()

    def refresh_requests(self):
        return [u for m, u in self.requests if m == "POST" and "/api/refresh" in u]

    def tab_to(self, element_id, presses=6):
        """Presses Tab until the element with `element_id` has the focus; True when it got there."""
        for _ in range(presses):
            self.page.keyboard.press("Tab")
            if self.page.evaluate("() => document.activeElement.id") == element_id:
                return True
        return False

    # Touch through the DevTools protocol: the same path a finger takes.
    def touch(self, kind, x=None, y=None):
        self.finger.send(kind, x, y)

    def touch_pull(self, distance, x=200, y=250, steps=12, release=True):
        self.finger.pull(distance, x, y, steps, release)

    def mouse_pull(self, distance, x=640, y=300, steps=12, release=True):
        m = self.page.mouse
        m.move(x, y)
        m.down()
        m.move(x, y + distance, steps=steps)
        if release:
            m.up()


class Hold:
    """Holds the page's requests to `pattern` whose URL `when(url)` accepts, as a network too slow
    to answer would, until `release()` lets them go on: what the page shows while it waits can be
    looked at for as long as a test needs, and the answer then comes at once."""

    def __init__(self, page, pattern, when=lambda url: True):
        self.page, self.held, self.holding = page, [], True

        def route(r):
            if self.holding and when(r.request.url):
                self.held.append(r)
            else:
                r.continue_()
        page.route(pattern, route)

    def release(self, timeout_ms=TIMEOUT_MS):
        """Lets what is held go on, and every later request straight through; at least one
        request must have been held (waited for up to `timeout_ms`)."""
        for _ in range(timeout_ms // 20):
            if self.held:
                break
            self.page.wait_for_timeout(20)  # the route's event is delivered inside a Playwright call
        assert self.held, "no request was held"
        self.holding = False
        for r in self.held:
            r.continue_()


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

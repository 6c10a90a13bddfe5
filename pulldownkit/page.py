"""Pulldown's page in Chromium, driven as its reader would: one `Tab` for the browser tests and
the README screenshots. Gestures go through real input (a finger through the DevTools protocol,
the mouse, the wheel, the keyboard), never through the page's functions, and every wait is on an
event or on what the page says about itself (its panel's state, aria-busy, scrollend, its
animations), never on a fixed time.
"""
import re

from pulldownkit.browser import wait_feed_idle
from pulldownkit.touch import Finger

TIMEOUT_MS = 10_000
# Where the panel state `s` was recorded from index `from` on, plus one; else, when it is the state
# now, the record's length; else false. A page loaded again has no record until `open`.
PASSED = """([s, from]) => { const r = window.__states || [], i = r.indexOf(s, from);
    return i >= 0 ? i + 1 : document.querySelector('.ptr').dataset.state === s && Math.max(r.length, 1); }"""
# What `open` installs: the panel's states as they change, scrolling (under way until its
# scrollend; one the page makes without a scrollend, content that shrank under it, is over after
# half a second), and the ends of the gestures the page was sent.
RECORD = """() => {
    const panel = document.querySelector('.ptr');
    window.__states = [panel.dataset.state];
    window.__times = [performance.now()];
    new MutationObserver(() => {
        const s = panel.dataset.state;
        if (__states[__states.length - 1] !== s) { __states.push(s); __times.push(performance.now()); }
    }).observe(panel, { attributes: true, attributeFilter: ['data-state'] });
    window.__moving = false;
    window.__scrolled = 0;
    window.__scrolls = 0;
    addEventListener('scroll', () => { __moving = true; __scrolled = performance.now(); __scrolls++; }, { capture: true });
    addEventListener('scrollend', () => { __moving = false; }, { capture: true });
    window.__ends = 0;
    for (const type of ['touchend', 'touchcancel', 'mouseup']) addEventListener(type, () => __ends++, { capture: true });
}"""
STILL = "() => !__moving || performance.now() - __scrolled > 500"
AT_BOTTOM = "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2"
# No finite animation or transition runs (the spinner's and the skeletons' run for ever).
SETTLED = """() => document.getAnimations().every(a => a.playState !== 'running'
    || a.effect.getComputedTiming().iterations === Infinity)"""
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


class Tab:
    """A page on a server in its own browser context, with the requests it made, its dialogs,
    errors and console, and gestures through real input."""

    def __init__(self, context, server, timeout_ms=TIMEOUT_MS):
        self.context = context
        self.server = server
        self.page = context.new_page()
        self.page.set_default_timeout(timeout_ms)
        self.requests, self.dialogs, self.errors, self.console = [], [], [], []
        self.page.on("request", lambda r: self.requests.append((r.method, r.url)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)
        self.finger = Finger(self.page)
        self.seen = 1

    def open(self, query="", wait_items=True):
        """Opens the feed (`query` is what follows `/`: `?lang=zh`, `#demo=…`) and waits until its
        script runs, the session has answered ("Last updated" says something: a refresh made
        before then could be given another session) and, unless `wait_items` is false, its
        articles are in and nothing loads."""
        self.page.goto(self.server.url + "/" + query)
        if wait_items:
            self.page.wait_for_selector("#feed article")
            wait_feed_idle(self.page)
        # The script has made its panel: a Chinese page's runs on once its texts are fetched.
        self.page.wait_for_selector(".ptr", state="attached")
        self.page.wait_for_function("() => document.querySelector('.ptr-updated').textContent !== ''")
        self.record()
        return self

    def record(self):
        """Starts recording the panel's states, scrolling and the ends of gestures afresh (`open`
        does; a page loaded again by other means needs it)."""
        self.page.evaluate(RECORD)
        self.seen = 1  # the first recorded state is the one before anything happened

    def _console(self, message):
        self.console.append(message.text)
        if message.type == "error":
            self.errors.append(message.text)

    # What the page shows.
    def state(self):
        return self.page.get_attribute(".ptr", "data-state")

    def states(self):
        return self.page.evaluate("window.__states")

    def text(self, selector):
        return self.page.text_content(selector)

    def status(self):
        return self.page.text_content(".ptr [role=status]")

    def lasted(self, state):
        """How long (ms, the page's clock) the panel stayed in `state` the first time it was in it."""
        return self.page.evaluate("s => { const i = __states.indexOf(s); return __times[i + 1] - __times[i]; }", state)

    def ids(self):
        """The ids of the articles in the DOM now: only the window around the viewport."""
        return [int(x) for x in self.page.eval_on_selector_all("#feed article", "as => as.map(a => a.dataset.id)")]

    def end(self):
        """Where the feed ends on screen (END): the last article, the row under it, the spacer."""
        return self.page.evaluate(END)

    def refresh_requests(self):
        return [u for m, u in self.requests if m == "POST" and "/api/refresh" in u]

    # Waiting on the page.
    def idle(self):
        """Waits until no page or refresh is being fetched."""
        wait_feed_idle(self.page)

    def frames(self, n=2):
        """Waits for `n` animation frames: the window has followed the last scroll."""
        self.page.evaluate("n => new Promise(r => { const f = () => --n ? requestAnimationFrame(f) : r(); requestAnimationFrame(f); })", n)

    def wait_still(self):
        """Waits until the page's scrolling has ended (its scrollend event: a fling or a smooth
        wheel scroll has come to rest) and the window has followed."""
        self.page.wait_for_function(STILL)
        self.frames()

    def settled(self):
        """Waits until no transition or animation of a finite length runs (the arrow's turn, the
        panel springing back or closing, a new article's entrance), then a frame more."""
        self.page.wait_for_function(SETTLED)
        self.frames()

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

    def handled(self, act, *args, **kwargs):
        """Does `act` (a gesture that ends by lifting the finger or the mouse button) and waits until
        the page has had the gesture's end and drawn a frame since: what the gesture did, or did
        not do, is on screen."""
        ends = self.page.evaluate("__ends")
        act(*args, **kwargs)
        self.page.wait_for_function("n => __ends > n", arg=ends)
        self.frames()

    # Gestures.
    def touch(self, kind, x=None, y=None):
        """One touch event through the DevTools protocol: the path a finger takes."""
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

    def swipe(self, dy, x=200, y=600, steps=6):
        """A finger flick `dy` px up the screen (scrolling down), then lifted: real touch scrolling."""
        self.finger.down(x, y)
        self.finger.drag(x, y, y - dy, steps)
        self.finger.up()

    def wheel(self, dy, x=200, y=500):
        self.page.mouse.move(x, y)
        self.page.mouse.wheel(0, dy)

    def scroll_by(self, act, *args, **kwargs):
        """Does `act` (a swipe, the wheel, a key that scrolls) and waits until the scroll it started
        has come to rest, the page has grown (a page came in) or it is at its bottom: whichever
        comes first, so an input that had nothing left to scroll does not wait for ever. It starts
        from rest: a key pressed while a smooth scroll is still under way may scroll nothing."""
        self.page.wait_for_function(STILL)
        mark = self.page.evaluate("() => [__scrolls, document.documentElement.scrollHeight]")
        act(*args, **kwargs)
        self.page.wait_for_function(f"""([n, h]) => __scrolls > n && ({STILL})()
            || document.documentElement.scrollHeight !== h || ({AT_BOTTOM})()""", arg=mark)

    def to_bottom(self, until="true", touch=True, tries=80):
        """Scrolls down by finger flicks (`touch`) or the wheel until the page is at its bottom and
        `until` (an expression in the page) holds, waiting at the bottom while a page comes in;
        then waits for the scrolling to come to rest."""
        flick = (lambda: self.swipe(500)) if touch else (lambda: self.wheel(1500, x=640, y=400))
        done = f"() => ({AT_BOTTOM})() && ({until})"
        for _ in range(tries):
            if self.page.evaluate(done):
                break
            # Where it is and how tall it is, read at once: a page that comes in between two reads
            # would leave a height to wait on that is already the new one, above the bottom.
            bottom, height = self.page.evaluate(f"() => [({AT_BOTTOM})(), document.documentElement.scrollHeight]")
            if bottom:
                self.page.wait_for_function(f"() => document.documentElement.scrollHeight !== {height} || ({until})")
            else:
                self.scroll_by(flick)
        self.wait_still()
        assert self.page.evaluate(done), "never reached the bottom"

    def tab_to(self, element_id, presses=6):
        """Presses Tab until the element with `element_id` has the focus; True when it got there."""
        for _ in range(presses):
            self.page.keyboard.press("Tab")
            if self.page.evaluate("() => document.activeElement.id") == element_id:
                return True
        return False

    def close(self):
        self.context.close()


class Hold:
    """Holds the page's requests to `pattern` (a glob, as page.route takes) whose URL `when(url)`
    accepts, as a network too slow to answer would, until `release()` lets them go on (to the
    routes set before this one, else to the server): what the page shows while it waits can be
    looked at for as long as a test needs, and the answer then comes at once. `answer` gives the
    first one an answer of the test's instead."""

    def __init__(self, page, pattern, when=lambda url: True):
        self.page, self.held, self.holding = page, [], True
        # Listening from now on: `release` waits for the first such request, made before it or after.
        matches = glob(pattern)
        self._first = page.expect_request(lambda r: matches(r.url) and when(r.url))
        self._first.__enter__()

        def route(r):
            if self.holding and when(r.request.url):
                self.held.append(r)
            else:
                r.fallback()
        page.route(pattern, route)

    def release(self):
        """Lets what is held go on, and every later request straight through; at least one
        request must have been held."""
        for r in self._let_go():
            r.fallback()

    def answer(self, **response):
        """Answers the first request held as `response` says (route.fulfill's arguments); lets the
        others go on, and every later request straight through."""
        first, *others = self._let_go()
        first.fulfill(**response)
        for r in others:
            r.fallback()

    def _let_go(self):
        """What is held, once at least one request is (waited for); holds nothing from now on."""
        self._first.__exit__(None, None, None)
        self.page.evaluate("0")  # the request's route is delivered by now: it came before this answer
        assert self.held, "no request was held"
        self.holding = False
        return self.held


def glob(pattern):
    """A test of URLs against a glob as page.route reads it: `**` anything, `*` anything but `/`,
    every other character itself."""
    parts = (".*" if p == "**" else "[^/]*" if p == "*" else re.escape(p) for p in re.split(r"(\*\*|\*)", pattern))
    return re.compile("".join(parts)).fullmatch

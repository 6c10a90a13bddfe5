"""Takes the README screenshots of the page in every state, with real touch input on a phone-size
Chromium page (and two desktop shots), into docs/screenshots/.

    .venv/bin/python scripts/screenshots.py

Starts its own servers (port 0, temporary databases, `--quiet`, no demo items over time) with the
debug build (`swift build` first, or set PULLDOWN_BIN) and Debian's Chromium (PULLDOWN_CHROMIUM),
and stops every one of them by PID at the end.
"""
import os
import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright

from pulldownkit.browser import DESKTOP, PHONE, launch, wait_feed_idle, wait_panel_state
from pulldownkit.client import post
from pulldownkit.server import BINARY, REPO, start_server
from pulldownkit.touch import Finger

OUT = REPO / "docs" / "screenshots"
COMMON = dict(color_scheme="light", locale="en-US")
TIMEOUT_MS = 20_000


class Tab:
    """A page with gestures through real input: a finger (CDP touch events), or the mouse."""

    def __init__(self, browser, server, options):
        self.context = browser.new_context(**options, **COMMON)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.server = server
        self.finger = Finger(self.page)

    def open(self, items=True):
        """Opens the feed and waits for its articles (unless it has no `items`), its "Last updated"
        line (the session was asked for) and for nothing to be loading."""
        self.page.goto(self.server.url + "/")
        if items:
            self.page.wait_for_selector("#feed article")
        self.page.wait_for_function("() => document.querySelector('.ptr-updated').textContent !== ''")
        self.idle()
        return self

    def idle(self):
        """Waits until no page or refresh is being fetched."""
        wait_feed_idle(self.page)

    def wait_state(self, state):
        wait_panel_state(self.page, state)

    def text(self, selector):
        return self.page.text_content(selector)

    def swipe_to_bottom(self):
        """Scrolls with finger swipes (up the screen) until the end of the page is on screen."""
        at_bottom = "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2"
        for _ in range(60):
            if self.page.evaluate(at_bottom):
                break
            self.finger.down(200, 700)
            self.finger.drag(200, 700, 150, steps=8)
            self.finger.up()
            self.page.wait_for_timeout(250)
        self.settle_scroll()

    def wheel_to_bottom(self):
        """Scrolls with the mouse wheel until the end of the page is on screen."""
        at_bottom = "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2"
        self.page.mouse.move(640, 400)
        for _ in range(60):
            if self.page.evaluate(at_bottom):
                break
            self.page.mouse.wheel(0, 1200)
            self.page.wait_for_timeout(250)
        self.settle_scroll()

    def settle_scroll(self):
        last = None
        while (y := self.page.evaluate("scrollY")) != last:
            last = y
            self.page.wait_for_timeout(200)

    def shot(self, name, expect):
        """Saves the viewport as docs/screenshots/NAME after checking that `expect()` holds."""
        problem = expect()
        if problem:
            raise AssertionError(f"{name}: {problem}")
        # The pictures on screen are drawn, as a reader who looks a moment would see them.
        self.page.wait_for_function("""() => [...document.querySelectorAll('img')].every(i => { const r = i.getBoundingClientRect();
            return i.complete || r.top > innerHeight || r.bottom < 0; })""")
        self.page.screenshot(path=OUT / name, animations="allow")
        print("wrote", (OUT / name).relative_to(REPO))

    def close(self):
        self.context.close()


def check(tab, state=None, status=None, updated=None):
    """Returns what differs from the expected panel state, status text and 'last updated' start;
    the "N new items" pill must be hidden."""
    if tab.page.is_visible("#pill"):
        return f"the pill shows {tab.text('#pill')!r}"
    got = tab.page.get_attribute(".ptr", "data-state")
    if state and got != state:
        return f"state {got!r}, expected {state!r}"
    if status and tab.text(".ptr-text") != status:
        return f"status {tab.text('.ptr-text')!r}, expected {status!r}"
    if updated and not tab.text(".ptr-updated").startswith(updated):
        return f"updated line {tab.text('.ptr-updated')!r}, expected {updated!r}…"
    return None


def at_the_end(tab):
    """What differs from the feed's end: "No more items" right under the last article."""
    if tab.text("#more-text") != "No more items":
        return f"more row {tab.text('#more-text')!r}"
    gap = tab.page.evaluate("""() => { const a = [...document.querySelectorAll('#feed article')].at(-1);
        return document.getElementById('more').getBoundingClientRect().top - a.getBoundingClientRect().bottom; }""")
    return None if 0 <= gap <= 12 else f"{gap} px between the last article and 'No more items'"


def demo_panel(browser, start, tmp):
    """13 and 14: the Demo panel open, as a sheet on the phone (a tap, then "Fail the next refresh")
    and as a dialog on a desktop (a click), showing the knobs the server started with."""
    server = start(tmp / "demo.sqlite", "--delay-ms", "300", "--jitter-ms", "100", seed=50)
    for name, options in (("13-demo-panel.png", PHONE), ("14-demo-panel-desktop.png", DESKTOP)):
        tab = Tab(browser, server, options).open()
        if options is PHONE:
            tab.page.tap("#demo")
        else:
            tab.page.click("#demo")
        tab.page.wait_for_function("() => document.querySelector('dialog.demo input[name=delayMs]')?.value === '300'")
        if options is PHONE:
            tab.page.get_by_role("button", name="Fail the next refresh").tap()
            tab.page.wait_for_function("() => document.querySelector('.demo-say').textContent !== ''")
        tab.page.wait_for_timeout(300)  # the backdrop's fade
        tab.shot(name, lambda: None if tab.page.is_visible("dialog.demo[open]") else "the panel is not open")
        tab.close()


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no server binary at {BINARY}: run `swift build` first")
    OUT.mkdir(parents=True, exist_ok=True)
    servers = []

    def start(db, *args, seed=0, port=0):
        server = start_server(tmp, *args, db=db, seed=seed, port=port)
        servers.append(server)
        return server

    with tempfile.TemporaryDirectory(prefix="pulldown-shots-") as tmp, sync_playwright() as p:
        tmp = pathlib.Path(tmp)
        browser = launch(p)
        try:
            # 1-6 and 9: a seeded feed where every API answer takes 4 s, so "Updating…" and the
            # skeleton rows stay on screen. No event stream is let in (--max-streams 0; the page
            # retries quietly), so the item posted below waits for the pull, not in an "N new
            # items" pill the captions do not show.
            # 47 items: the newest is one of the demo's with a picture, so the first screen shows one.
            slow = start(tmp / "slow.sqlite", "--delay-ms", "4000", "--max-streams", "0", seed=47)
            tab = Tab(browser, slow, PHONE).open()
            tab.shot("1-idle.png", lambda: check(tab, state="idle"))

            post(slow, "/api/items", json={"title": "Fresh from the oven", "body": "Posted through the API, then pulled in.",
                                           "author": "demo", "avatar": "/media/demo/avatar-6.svg"}, timeout=30)
            x, y = 200, 250
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 95)  # 95 px of finger: the list moves about 45 px (resistance 0.5)
            tab.wait_state("pulling")
            tab.page.wait_for_timeout(150)
            tab.shot("2-pulling.png", lambda: check(tab, "pulling", "Pull down to refresh…"))

            tab.finger.drag(x, y + 95, y + 175, steps=6)  # on past the 60 px threshold, finger still down
            tab.wait_state("armed")
            tab.page.wait_for_timeout(350)  # the arrow's turn
            tab.shot("3-armed.png", lambda: check(tab, "armed", "Release to refresh…"))

            tab.finger.up()
            tab.wait_state("refreshing")
            tab.page.wait_for_timeout(400)  # the panel settles at its height
            tab.shot("4-refreshing.png", lambda: check(tab, "refreshing", "Updating…"))

            tab.wait_state("settling")
            tab.wait_state("idle")
            tab.page.wait_for_timeout(500)  # the new row's entrance
            # On a phone the "Last updated" line lives in the panel: a short pull (held) shows it
            # above the new row.
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 95)
            tab.wait_state("pulling")
            tab.page.wait_for_timeout(150)

            def updated():
                first = tab.text("#feed article h2")
                if first != "Fresh from the oven":
                    return f"first row {first!r}"
                return check(tab, "pulling", updated="Last updated on ")
            tab.shot("5-updated.png", updated)
            tab.finger.drag(x, y + 95, y, steps=6)  # back up and let go: no refresh
            tab.finger.up()
            tab.wait_state("idle")

            # The next page is held until its skeleton rows are taken: the server's delay alone
            # may run out while the finger is still scrolling back.
            held = []
            tab.page.route("**/api/items?before=*", lambda route: held.append(route))
            tab.swipe_to_bottom()
            tab.page.wait_for_function("() => document.getElementById('more').dataset.state === 'loading'")
            tab.swipe_to_bottom()
            # Back up slowly (no fling) until the skeletons start mid-screen, under the last articles.
            back = 450 - tab.page.eval_on_selector("#wait", "w => w.getBoundingClientRect().top")
            tab.finger.down(x, 150)
            tab.finger.drag(x, 150, 150 + back, steps=40)
            tab.page.wait_for_timeout(200)
            tab.finger.up()
            tab.settle_scroll()

            def loading():
                box = tab.page.eval_on_selector("#wait", "w => [w.getBoundingClientRect().top, innerHeight]")
                if tab.page.locator("#wait .skeleton").count() == 0 or not 200 < box[0] < box[1] - 300:
                    return f"skeleton rows not in the lower half of the screen ({box})"
                return None
            tab.shot("6-loading-more.png", loading)
            for route in held:
                route.continue_()
            tab.page.unroute("**/api/items?before=*")
            tab.close()

            # 9: the same feed on a desktop, after a refresh from the Refresh button.
            desk = Tab(browser, slow, DESKTOP).open()
            box = desk.page.locator("#refresh").bounding_box()
            desk.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            desk.wait_state("refreshing")
            desk.wait_state("idle")
            desk.idle()
            desk.page.wait_for_timeout(500)
            desk.shot("9-desktop.png", lambda: None if desk.text("#updated").startswith("Last updated on ")
                      else f"header {desk.text('#updated')!r}")
            desk.close()

            # 7 and 12: a short feed, scrolled to its end, on the phone and on a desktop.
            short = start(tmp / "short.sqlite", seed=15)
            for name, options in (("7-no-more-items.png", PHONE), ("12-desktop-end.png", DESKTOP)):
                tab = Tab(browser, short, options).open()
                to_bottom = tab.swipe_to_bottom if options is PHONE else tab.wheel_to_bottom
                to_bottom()
                tab.page.wait_for_function("() => document.getElementById('more').dataset.state === 'end'")
                to_bottom()
                tab.shot(name, lambda: at_the_end(tab))
                tab.close()

            # 10: a load-more that fails: every API call does, but the first page comes with `/`.
            load_failing = start(tmp / "load-failing.sqlite", "--fail-rate", "1", "--max-streams", "0", seed=50)
            tab = Tab(browser, load_failing, PHONE).open()
            tab.swipe_to_bottom()
            tab.page.wait_for_selector("#more-retry", state="visible")
            tab.swipe_to_bottom()
            tab.shot("10-load-more-failed.png", lambda: None if tab.text("#more-text") == "Couldn't load more items."
                     else f"more row {tab.text('#more-text')!r}")
            tab.close()

            # 11: an empty feed.
            empty = start(tmp / "empty.sqlite", seed=0)
            tab = Tab(browser, empty, PHONE).open(items=False)
            tab.shot("11-empty.png", lambda: None if tab.page.is_visible("#empty") else "no empty state")
            tab.close()

            # 8: the feed loads from a healthy server, which is then restarted on the same port and
            # database with --fail-rate 1, so the next pull fails.
            db = tmp / "failing.sqlite"
            healthy = start(db, seed=50)
            tab = Tab(browser, healthy, PHONE).open()
            tab.page.wait_for_timeout(500)
            tab.idle()
            healthy.stop()
            failing = start(db, "--fail-rate", "1", seed=50, port=healthy.port)
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 175)
            tab.wait_state("armed")
            tab.finger.up()
            tab.wait_state("refreshing")
            tab.wait_state("idle")
            tab.page.wait_for_timeout(300)
            tab.shot("8-refresh-failed.png",
                     lambda: None if tab.page.is_visible("#error") and tab.text("#error-text") == "Couldn't refresh. Try again."
                     else "no refresh error shown")
            tab.close()
            failing.stop()

            demo_panel(browser, start, tmp)
        finally:
            browser.close()
            for server in servers:
                server.stop()


if __name__ == "__main__":
    main()

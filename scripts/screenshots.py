"""Takes the README screenshots of the page in every state, with real touch input on a phone-size
Chromium page (and two desktop shots), into docs/screenshots/.

    .venv/bin/python scripts/screenshots.py
    .venv/bin/python scripts/screenshots.py demo_script demo_panel   # only these

Starts its own servers (port 0, temporary databases, `--quiet`, no demo items over time) with the
debug build (`swift build` first, or set PULLDOWN_BIN) and Debian's Chromium (PULLDOWN_CHROMIUM),
and stops every one of them by PID at the end.
"""
import os
import pathlib
import re
import sys
import tempfile

from playwright.sync_api import sync_playwright

from pulldownkit.browser import DESKTOP, PHONE, launch
from pulldownkit.client import get, post
from pulldownkit.page import Hold, Tab
from pulldownkit.server import BINARY, REPO, start_server

OUT = REPO / "docs" / "screenshots"
COMMON = dict(color_scheme="light", locale="en-US")
TIMEOUT_MS = 20_000


def new_tab(browser, server, options):
    """A page on `server` in a context of its own (PHONE or DESKTOP), in light colours and English."""
    return Tab(browser.new_context(**options, **COMMON), server, TIMEOUT_MS)


def shot(tab, name, expect):
    """Saves the viewport as docs/screenshots/NAME after checking that `expect()` holds."""
    problem = expect()
    if problem:
        raise AssertionError(f"{name}: {problem}")
    # The pictures on screen are drawn, as a reader who looks a moment would see them.
    tab.page.wait_for_function("""() => [...document.querySelectorAll('img')].every(i => { const r = i.getBoundingClientRect();
        return i.complete || r.top > innerHeight || r.bottom < 0; })""")
    tab.page.screenshot(path=OUT / name, animations="allow")
    print("wrote", (OUT / name).relative_to(REPO))


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
    and as a dialog on a desktop (a click, then a failure rate of 3 typed, which the server
    refuses), showing the knobs the server started with."""
    server = start(tmp / "demo.sqlite", "--delay-ms", "300", "--jitter-ms", "100", seed=50)
    for name, options, said in (("13-demo-panel.png", PHONE, "The next refresh fails with 503."),
                                ("14-demo-panel-desktop.png", DESKTOP, "Not changed. Failure rate: between 0 and 1.")):
        tab = new_tab(browser, server, options).open()
        if options is PHONE:
            tab.page.tap("#demo")
        else:
            tab.page.click("#demo")
        tab.page.wait_for_function("() => document.querySelector('dialog.demo input[name=delayMs]')?.value === '300'")
        if options is PHONE:
            tab.page.get_by_role("button", name="Fail the next refresh").tap()
        else:
            tab.page.click("dialog.demo input[name=failRate]")
            tab.page.keyboard.press("Control+A")
            tab.page.keyboard.type("3")
            tab.page.keyboard.press("Enter")
        tab.page.wait_for_function("t => document.querySelector('.demo-say').textContent === t", arg=said)
        tab.settled()
        shot(tab, name, lambda: None if tab.page.is_visible("dialog.demo[open]") else "the panel is not open")
        tab.close()


def this_device(browser, start, tmp):
    """19 and 20: the Demo panel's "This device" on a network profile: 3G tapped on the phone
    (pages and pictures come slowly), Offline 10 s clicked on a desktop."""
    server = start(tmp / "device.sqlite", seed=50)
    for name, options, preset, said in (
            ("19-this-device-3g.png", PHONE, "3G", "This device is on 3G: pages and pictures come slowly."),
            ("20-this-device-offline-desktop.png", DESKTOP, "Offline 10\u00a0s", "This device is offline for 10 s.")):
        tab = new_tab(browser, server, options).open()
        tab.page.tap("#demo") if options is PHONE else tab.page.click("#demo")
        choice = tab.page.get_by_role("radio", name=preset)
        choice.wait_for()
        tab.page.wait_for_function("() => document.querySelector('dialog.demo input[value=none]').checked")
        choice.tap() if options is PHONE else choice.click()
        tab.page.wait_for_function("t => document.querySelector('.demo-say').textContent === t", arg=said)
        tab.settled()
        shot(tab, name, lambda: None if choice.is_checked() else f"{preset} is not checked")
        tab.close()


def demo_script(browser, start, tmp):
    """21 and 22: the Demo panel's Script part with docs/scripts/breaking-news.json loaded on a
    manual clock moved 9 s in: the act "Breaking news" on the page and in the panel, the steps
    run marked done, the next one marked, Pause tapped on the phone, the clock running on the
    desktop."""
    script = REPO / "docs" / "scripts" / "breaking-news.json"
    for name, options, state in (("21-demo-script.png", PHONE, "Paused"),
                                 ("22-demo-script-desktop.png", DESKTOP, "Playing")):
        server = start(tmp / f"{name}.sqlite", "--clock", "manual", "--script", str(script), seed=50)
        post(server, "/api/demo/clock", json={"advance": "9s"})
        tab = new_tab(browser, server, options).open()
        tab.page.tap("#demo") if options is PHONE else tab.page.click("#demo")
        tab.page.wait_for_function("() => document.querySelector('.demo-act')?.textContent === 'Breaking news'")
        if options is PHONE:
            tab.page.locator("dialog.demo button[name=pause]").tap()
        tab.page.wait_for_function("s => document.querySelector('.demo-where').textContent.startsWith(s)", arg=state)
        tab.settled()
        shot(tab, name, lambda: None if tab.text("#act") == "Breaking news" else f"the page's act reads {tab.text('#act')!r}")
        tab.close()


def post_form(browser, start, tmp, name="15-post-form-error.png", options=PHONE):
    """15: the post form, tapped open, refusing a title of spaces (the server trims it to nothing)."""
    tab = new_tab(browser, start(tmp / "form.sqlite", seed=20), options).open()
    tab.page.locator(".compose summary").click()
    tab.page.locator("input[name=title]").click()
    tab.page.keyboard.type("   ")
    tab.page.locator("textarea[name=body]").click()
    tab.page.keyboard.type("A post without a title")
    tab.page.locator("#compose button").click()
    said = "Couldn't post: an item needs a title."
    tab.page.wait_for_function("t => document.getElementById('compose-status').textContent === t", arg=said)
    tab.settled()
    shot(tab, name, lambda: None if tab.page.evaluate("document.activeElement.name") == "title" else "the title has no focus")
    tab.close()


def item_page(browser, start, tmp, name="16-item-page.png", options=PHONE):
    """16: an item days old on its own page: its date and time, where no day header says the day."""
    server = start(tmp / "item.sqlite", seed=150)
    tab = new_tab(browser, server, options)
    tab.page.goto(f"{server.url}/item.html?id=1")
    tab.page.wait_for_selector("#item article")
    shot(tab, name, lambda: None if re.search(r"\d{4}", tab.text("#item time")) else f"time {tab.text('#item time')!r}")
    tab.close()


def started_over(browser, start, tmp, names=(("17-started-over.png", PHONE), ("18-started-over-desktop.png", DESKTOP))):
    """17 and 18: the line that says the feed started over, after the stream said `reset` (as the
    server's does when its store is reset) to a page scrolled down a few screens."""
    server = start(tmp / "over.sqlite", seed=50)
    for name, options in names:
        tab = new_tab(browser, server, options)
        stream = Hold(tab.page, "**/api/events*")
        tab.open()
        for _ in range(3):
            tab.scroll_by(tab.swipe, 600) if options is PHONE else tab.scroll_by(tab.wheel, 900, x=640, y=400)
        tab.wait_still()
        stream.answer(status=200, content_type="text/event-stream", body="retry: 600000\nevent: reset\ndata: {}\n\n")
        tab.page.wait_for_function("() => !document.getElementById('note').hidden")
        tab.idle()
        tab.settled()
        shot(tab, name, lambda: None if tab.page.evaluate("scrollY") == 0 else "not at the top")
        tab.close()


def paging(browser, start, tmp):
    """23: a burst of 60 items came while the reader read item 25 of 30; Refresh brought the newest
    page above the gap, shown as a row to fill from either end. 24: the feed opened on item 60 of
    120 (/#item=60), loaded both ways, with Back to newest at the foot of the screen."""
    server = start(tmp / "gap.sqlite", "--max-streams", "0", seed=30)
    tab = new_tab(browser, server, PHONE).open()
    tab.swipe(400)
    tab.wait_still()
    post(server, "/api/demo/items", json={"count": 60})
    tab.refresh_by(tab.page.click, "#refresh")
    tab.page.locator("#feed .gap").scroll_into_view_if_needed()
    tab.page.evaluate("() => scrollBy(0, -innerHeight / 3)")
    tab.wait_still()
    tab.idle()
    shot(tab, "23-gap.png", lambda: None if tab.page.is_visible("#feed .gap") else "no gap row")
    tab.close()
    server = start(tmp / "land.sqlite", seed=120)
    tab = new_tab(browser, server, DESKTOP).open("#item=60", wait_items=False)
    tab.page.wait_for_function("() => document.activeElement?.dataset?.id === '60'")
    tab.idle()
    shot(tab, "24-item-landing-desktop.png", lambda: None if tab.page.is_visible(".to-newest") else "no Back to newest")
    tab.close()


def bad_app(server, name="MyApp/2.1 (iPhone; iOS 17.4)"):
    """An app with two mistakes, as the Doctor view shows them: it pages, asks a page twice at once,
    and polls the newest page without its tag."""
    headers = {"User-Agent": name}
    first = get(server, "/api/items", headers=headers)
    older = first.json()["items"][-1]["id"]
    for _ in range(2):
        get(server, f"/api/items?before={older}", headers=headers)
    get(server, "/api/items?limit=12", headers=headers)
    refused = get(server, f"/api/items/{older}?_fail=503", headers=headers)
    get(server, f"/api/items/{older}", headers=headers)
    assert refused.status == 503


def doctor_view(browser, start, tmp, names=(("19-doctor.png", PHONE, "MyApp/2.1 (iPhone; iOS 17.4)"),
                                            ("20-doctor-desktop.png", DESKTOP, "MyApp/2.1 (Android 14; Pixel 8)"))):
    """19 and 20: the Doctor view, opened from the Demo panel's link, showing an app's findings and
    (on the desktop) its last requests beside them."""
    server = start(tmp / "doctor.sqlite", seed=35)
    for name, options, app_name in names:
        tab = new_tab(browser, server, options).open()
        tab.page.click("#demo")
        link = tab.page.get_by_role("link", name=re.compile("Client doctor"))
        link.wait_for()
        bad_app(server, app_name)  # the most recent client: the first one shown
        link.click()
        app = tab.page.locator(".client", has_text=app_name)
        app.locator(".finding").first.wait_for()
        if options is DESKTOP:
            app.locator("summary").click()
            tab.page.wait_for_selector(".timeline li.bad")
        tab.page.evaluate("() => scrollTo(0, 0)")
        tab.settled()
        shot(tab, name, lambda: None if tab.page.locator(".client").first.locator(".finding").count() >= 2
             else "the first client shows fewer than two findings")
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

    only = sys.argv[1:]  # names of the functions below to run alone, e.g. demo_script
    with tempfile.TemporaryDirectory(prefix="pulldown-shots-") as tmp, sync_playwright() as p:
        tmp = pathlib.Path(tmp)
        browser = launch(p)
        try:
            for name in only:
                globals()[name](browser, start, tmp)
            if only:
                return
            # 1-6 and 9: a seeded feed where every API answer takes 4 s, so "Updating…" and the
            # skeleton rows stay on screen. No event stream is let in (--max-streams 0; the page
            # retries quietly), so the item posted below waits for the pull, not in an "N new
            # items" pill the captions do not show.
            # 47 items: the newest is one of the demo's with a picture, so the first screen shows one.
            slow = start(tmp / "slow.sqlite", "--delay-ms", "4000", "--max-streams", "0", seed=47)
            tab = new_tab(browser, slow, PHONE).open()
            shot(tab, "1-idle.png", lambda: check(tab, state="idle"))

            post(slow, "/api/items", json={"title": "Fresh from the oven", "body": "Posted through the API, then pulled in.",
                                           "author": "demo", "avatar": "/media/demo/avatar-6.png"}, timeout=30)
            x, y = 200, 250
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 95)  # 95 px of finger: the list moves about 45 px (resistance 0.5)
            tab.wait_state("pulling")
            tab.frames()
            shot(tab, "2-pulling.png", lambda: check(tab, "pulling", "Pull down to refresh…"))

            tab.finger.drag(x, y + 95, y + 175, steps=6)  # on past the 60 px threshold, finger still down
            tab.wait_state("armed")
            tab.settled()  # the arrow's turn
            shot(tab, "3-armed.png", lambda: check(tab, "armed", "Release to refresh…"))

            tab.finger.up()
            tab.wait_state("refreshing")
            tab.settled()  # the panel at its height
            shot(tab, "4-refreshing.png", lambda: check(tab, "refreshing", "Updating…"))

            tab.wait_state("settling")
            tab.wait_state("idle")
            tab.settled()  # the new row's entrance
            # On a phone the "Last updated" line lives in the panel: a short pull (held) shows it
            # above the new row.
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 95)
            tab.wait_state("pulling")
            tab.frames()

            def updated():
                first = tab.text("#feed article h2")
                if first != "Fresh from the oven":
                    return f"first row {first!r}"
                return check(tab, "pulling", updated="Last updated on ")
            shot(tab, "5-updated.png", updated)
            tab.finger.drag(x, y + 95, y, steps=6)  # back up and let go: no refresh
            tab.finger.up()
            tab.wait_state("idle")

            # The next page is held until its skeleton rows are taken: the server's delay alone
            # may run out while the finger is still scrolling back.
            held = []
            tab.page.route("**/api/items?before=*", lambda route: held.append(route))
            tab.to_bottom()
            tab.page.wait_for_function("() => document.getElementById('more').dataset.state === 'loading'")
            tab.to_bottom()
            # Back up slowly (no fling) until the skeletons start mid-screen, under the last articles.
            back = 450 - tab.page.eval_on_selector("#wait", "w => w.getBoundingClientRect().top")
            tab.finger.down(x, 150)
            tab.finger.drag(x, 150, 150 + back, steps=40)
            tab.finger.hold(x, 150 + back)  # still before it is lifted: no fling
            tab.finger.up()
            tab.wait_still()

            def loading():
                box = tab.page.eval_on_selector("#wait", "w => [w.getBoundingClientRect().top, innerHeight]")
                if tab.page.locator("#wait .skeleton").count() == 0 or not 200 < box[0] < box[1] - 300:
                    return f"skeleton rows not in the lower half of the screen ({box})"
                return None
            shot(tab, "6-loading-more.png", loading)
            for route in held:
                route.continue_()
            tab.page.unroute("**/api/items?before=*")
            tab.close()

            # 9: the same feed on a desktop, after a refresh from the Refresh button.
            desk = new_tab(browser, slow, DESKTOP).open()
            box = desk.page.locator("#refresh").bounding_box()
            desk.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            desk.wait_state("refreshing")
            desk.wait_state("idle")
            desk.idle()
            desk.settled()  # the new row's entrance
            shot(desk, "9-desktop.png", lambda: None if desk.text("#updated").startswith("Last updated on ")
                      else f"header {desk.text('#updated')!r}")
            desk.close()

            # 7 and 12: a short feed, scrolled to its end, on the phone and on a desktop.
            short = start(tmp / "short.sqlite", seed=15)
            for name, options in (("7-no-more-items.png", PHONE), ("12-desktop-end.png", DESKTOP)):
                tab = new_tab(browser, short, options).open()
                tab.to_bottom("document.getElementById('more').dataset.state === 'end'", touch=options is PHONE)
                shot(tab, name, lambda: at_the_end(tab))
                tab.close()

            # 10: a load-more that fails: every API call does, but the first page comes with `/`.
            load_failing = start(tmp / "load-failing.sqlite", "--fail-rate", "1", "--max-streams", "0", seed=50)
            tab = new_tab(browser, load_failing, PHONE).open()
            tab.to_bottom("!document.getElementById('more-retry').hidden")
            shot(tab, "10-load-more-failed.png", lambda: None if tab.text("#more-text") == "Couldn't load more items."
                     else f"more row {tab.text('#more-text')!r}")
            tab.close()

            # 11: an empty feed.
            empty = start(tmp / "empty.sqlite", seed=0)
            tab = new_tab(browser, empty, PHONE).open(wait_items=False)
            tab.idle()
            shot(tab, "11-empty.png", lambda: None if tab.page.is_visible("#empty") else "no empty state")
            tab.close()

            # 8: the feed loads from a healthy server, which is then restarted on the same port and
            # database with --fail-rate 1, so the next pull fails.
            db = tmp / "failing.sqlite"
            healthy = start(db, seed=50)
            tab = new_tab(browser, healthy, PHONE).open()
            tab.settled()
            healthy.stop()
            failing = start(db, "--fail-rate", "1", seed=50, port=healthy.port)
            tab.finger.down(x, y)
            tab.finger.drag(x, y, y + 175)
            tab.wait_state("armed")
            tab.finger.up()
            tab.wait_state("refreshing")
            tab.wait_state("idle")
            tab.settled()
            shot(tab, "8-refresh-failed.png",
                     lambda: None if tab.page.is_visible("#error") and tab.text("#error-text") == "Couldn't refresh."
                     else "no refresh error shown")
            tab.close()
            failing.stop()

            demo_panel(browser, start, tmp)
            this_device(browser, start, tmp)
            demo_script(browser, start, tmp)
            post_form(browser, start, tmp)
            item_page(browser, start, tmp)
            started_over(browser, start, tmp)
            doctor_view(browser, start, tmp)
        finally:
            browser.close()
            for server in servers:
                server.stop()


if __name__ == "__main__":
    main()

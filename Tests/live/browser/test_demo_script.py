"""The Demo panel's Script part and the page's act line: a script loaded by curl (the test's own
HTTP request) appears in the open panel as a timeline, its buttons play, pause and restart it, and
the current act's label shows on the page. Under --clock manual the time moves only when the test
moves it (POST /api/demo/clock): every step runs exactly when the test says, with no waiting."""
import json

import pytest
from playwright.sync_api import expect

from pulldownkit.client import call, get
from test_demo_panel import DIALOG, field, open_live, open_panel, say, type_into

SCRIPT = {"steps": [
    {"at": "0s", "do": "label", "text": "Act 1: a quiet morning"},
    {"at": "2s", "do": "addItems", "count": 3},
    {"at": "10s", "do": "addItems", "count": 5, "name": "burst"},
    {"after": {"step": "burst"}, "do": "set", "knobs": {"delayMs": 0}},
    {"at": "20s", "do": "label", "text": "Act 2: bad network"},
]}


def advance(server, duration):
    reply = call(server, "POST", "/api/demo/clock", json={"advance": duration})
    assert reply.status == 200, reply


def state(server):
    reply = get(server, "/api/demo/script")
    assert reply.status == 200, reply
    return reply.json()


def rows(tab):
    return tab.page.locator(f"{DIALOG} .demo-steps li")


def press(tab, name, touch):
    button = tab.page.locator(f"{DIALOG} .demo-play button[name={name}]")
    button.tap() if touch else button.click()


def test_a_script_loaded_by_curl_appears_in_the_open_panel_and_its_act_on_the_page(start_server, phone):
    server = start_server("--clock", "manual", seed="20")
    tab = open_live(phone(server))
    act = tab.page.locator("#act")
    expect(act).to_be_hidden()
    tab.page.locator("#demo").tap()
    panel = tab.page.locator(DIALOG)
    expect(panel.locator(".demo-act")).to_have_text("No script loaded: start with --script FILE, or PUT one to /api/demo/script.")
    expect(panel.locator(".demo-play")).to_be_hidden()

    reply = call(server, "PUT", "/api/demo/script", json=SCRIPT)
    assert reply.status == 200, reply
    expect(rows(tab)).to_have_count(5)
    expect(panel.locator(".demo-act")).to_have_text("Act 1: a quiet morning")
    expect(panel.locator(".demo-where")).to_have_text("Playing · 0:00 · next: Add items in 0:02")
    expect(rows(tab).nth(0)).to_have_class("done")
    expect(rows(tab).nth(1)).to_have_attribute("aria-current", "step")
    expect(rows(tab).nth(3)).to_contain_text("after burst")
    # Each step says what it does in the fields it was written with.
    expect(rows(tab).locator(".what")).to_have_text(["Act “Act 1: a quiet morning”", "Add items: count 3",
                                                      "Add items: count 5 (burst)", "Change knobs: delayMs 0",
                                                      "Act “Act 2: bad network”"])
    # The page behind the panel shows the act, in a polite status line.
    expect(act).to_have_text("Act 1: a quiet morning")
    assert act.get_attribute("role") == "status"

    advance(server, "2s")
    expect(rows(tab).nth(2)).to_have_attribute("aria-current", "step")
    expect(rows(tab).nth(1)).to_have_class("done")
    expect(panel.locator(".demo-where")).to_have_text("Playing · 0:02 · next: Add items (burst) in 0:08")
    advance(server, "18s")
    expect(panel.locator(".demo-act")).to_have_text("Act 2: bad network")
    expect(panel.locator(".demo-where")).to_have_text("Finished · 0:20")
    expect(tab.page.locator(f"{DIALOG} .demo-steps li.done")).to_have_count(5)
    assert tab.violations() == []

    tab.page.get_by_role("button", name="Close").tap()
    expect(act).to_have_text("Act 2: bad network")
    assert tab.violations() == []


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_play_pause_and_restart_steer_the_script_from_the_panel(start_server, tmp_path, device, request):
    script = tmp_path / "show.json"
    script.write_text(json.dumps(SCRIPT))
    server = start_server("--clock", "manual", "--script", str(script), seed="20")
    tab = open_live(request.getfixturevalue(device)(server))
    touch = device == "phone"
    tab.page.locator("#demo").tap() if touch else tab.page.click("#demo")
    expect(rows(tab)).to_have_count(5)
    play, pause = (tab.page.locator(f"{DIALOG} .demo-play button[name={n}]") for n in ("play", "pause"))
    expect(play).to_be_disabled()
    expect(pause).to_be_enabled()

    press(tab, "pause", touch)
    expect(say(tab)).to_have_text("Paused.")
    expect(play).to_be_enabled()
    assert state(server)["state"] == "paused"
    advance(server, "10s")  # paused time does not count: nothing runs
    expect(tab.page.locator(f"{DIALOG} .demo-where")).to_have_text("Paused · 0:00 · next: Add items in 0:02")
    assert state(server)["steps"][1]["runs"] == 0

    press(tab, "play", touch)
    expect(say(tab)).to_have_text("Playing.")
    advance(server, "10s")
    expect(rows(tab).nth(3)).to_have_class("done")  # the cue after the burst ran too
    expect(tab.page.locator(f"{DIALOG} .demo-where")).to_have_text("Playing · 0:10 · next: Act “Act 2: bad network” in 0:10")

    press(tab, "restart", touch)
    expect(say(tab)).to_have_text("Started again from the top.")
    expect(tab.page.locator(f"{DIALOG} .demo-where")).to_have_text("Playing · 0:00 · next: Add items in 0:02")
    expect(tab.page.locator(f"{DIALOG} .demo-steps li.done")).to_have_count(1)
    assert state(server)["elapsed"] == 0


def test_the_paging_knobs_have_fields_of_their_own(start_server, desktop):
    server = start_server("--short-pages", "0.25", "--cursor-ttl-seconds", "300", seed="20")
    tab = open_live(desktop(server))
    open_panel(tab)
    expect(field(tab, "shortPages")).to_have_value("0.25")
    expect(field(tab, "cursorTtlSeconds")).to_have_value("300")
    type_into(tab, "cursorTtlSeconds", "60", then="Enter")
    expect(say(tab)).to_have_text("Changed.")
    assert get(server, "/api/demo").json()["cursorTtlSeconds"] == 60
    type_into(tab, "shortPages", "2", then="Tab")
    expect(say(tab)).to_have_text("Not changed. Short pages (share): between 0 and 1.")
    expect(field(tab, "shortPages")).to_have_attribute("aria-invalid", "true")
    call(server, "PATCH", "/api/demo", json={"shortPages": 0.5},
         headers={"Content-Type": "application/merge-patch+json"})
    expect(field(tab, "shortPages")).to_have_value("0.5")


def test_opening_the_panel_brings_the_act_a_page_without_its_stream_missed(start_server, phone):
    server = start_server("--clock", "manual", "--max-streams", "0", seed="20")  # no stream is let in
    tab = phone(server)
    tab.open()
    assert call(server, "PUT", "/api/demo/script", json=SCRIPT).status == 200
    expect(tab.page.locator("#act")).to_be_hidden()
    tab.page.locator("#demo").tap()
    expect(tab.page.locator("#act")).to_have_text("Act 1: a quiet morning")
    expect(tab.page.locator(f"{DIALOG} .demo-act")).to_have_text("Act 1: a quiet morning")


def test_a_page_opened_while_a_script_plays_shows_its_act_from_the_stream_alone(start_server, desktop):
    server = start_server("--clock", "manual", seed="20")
    assert call(server, "PUT", "/api/demo/script", json=SCRIPT).status == 200
    tab = desktop(server)
    tab.open()
    expect(tab.page.locator("#act")).to_have_text("Act 1: a quiet morning")
    assert not [u for m, u in tab.requests if "/api/demo" in u], "the act comes with the stream, not a request of its own"

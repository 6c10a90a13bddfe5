"""The pull panel driven by real touch and mouse input."""
import re

from playwright.sync_api import expect

from pulldownkit.client import http_json
from conftest import Hold

UPDATED = re.compile(r"^Last updated on \d\d/\d\d/\d{4} \d\d:\d\d [AP]M$")


def arrow_rotation(tab):
    return tab.page.eval_on_selector(".ptr-arrow", "a => getComputedStyle(a).transform")


def test_touch_pull_goes_through_every_state_and_shows_the_new_item(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server).open()
    slow = Hold(tab.page, "**/api/refresh*")  # "Updating…" stays until the test has looked
    http_json(server, "POST", "/api/items", {"title": "Fresh from the oven", "body": "b", "author": "t"}, expect=201)
    # Set when the session's answer arrives, which the feed being drawn does not wait for.
    expect(tab.page.locator(".ptr-updated")).to_have_text("Not updated yet")

    tab.touch_pull(60, release=False)  # 60 px of finger is under the threshold after resistance
    tab.wait_state("pulling")
    assert tab.status() == "Pull down to refresh…"
    assert arrow_rotation(tab) in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    assert tab.page.eval_on_selector("#list", "l => l.style.transform") != ""

    tab.finger.drag(200, 310, 450, steps=10)  # on to 200 px: armed
    tab.wait_state("armed")
    assert tab.status() == "Release to refresh…"
    tab.settled()  # the arrow's turn
    assert arrow_rotation(tab).startswith("matrix(-1, ")

    tab.touch("touchEnd")
    tab.wait_state("refreshing")
    assert tab.status() == "Updating…"
    assert tab.page.is_visible(".ptr-spinner")
    slow.release()
    tab.wait_state("idle")
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]
    assert tab.status() == "1 new item"
    assert tab.page.text_content("#feed article h2") == "Fresh from the oven"
    assert UPDATED.match(tab.page.text_content(".ptr-updated"))
    assert len(tab.refresh_requests()) == 1
    assert tab.errors == []


def test_the_panel_arms_after_126_px_of_finger_travel(start_server, phone):
    """6 px of slop, then the panel follows half the finger: its 60 px threshold is 126 px of finger
    (what the README says)."""
    tab = phone(start_server(seed="20")).open()
    tab.touch_pull(124, release=False)
    tab.wait_state("pulling")
    tab.frames()
    assert tab.state() == "pulling"
    tab.touch("touchMove", 200, 250 + 128)
    tab.wait_state("armed")
    tab.touch("touchEnd")
    tab.wait_state("idle")
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]


def test_touch_released_under_the_threshold_springs_back_and_requests_nothing(start_server, phone):
    tab = phone(start_server(seed="20")).open()
    tab.handled(tab.touch_pull, 80)
    tab.wait_state("idle")
    tab.settled()  # sprung back
    assert "pulling" in tab.states()
    assert "armed" not in tab.states()
    assert tab.refresh_requests() == []
    assert tab.page.eval_on_selector("#list", "l => l.style.transform") == ""


def test_mouse_drag_pulls_and_refreshes_on_the_desktop(start_server, desktop):
    server = start_server("--delay-ms", "300", seed="20")
    tab = desktop(server).open()
    tab.mouse_pull(70, release=False)
    tab.wait_state("pulling")
    assert tab.status() == "Pull down to refresh…"
    tab.page.mouse.move(640, 300 + 220, steps=6)
    tab.wait_state("armed")
    assert tab.status() == "Release to refresh…"
    tab.page.mouse.move(640, 300 + 60, steps=6)  # back under the threshold
    tab.wait_state("pulling")
    tab.page.mouse.move(640, 300 + 220, steps=6)
    tab.wait_state("armed")
    tab.page.mouse.up()
    tab.wait_state("refreshing")
    tab.wait_state("idle")
    assert tab.states() == ["idle", "pulling", "armed", "pulling", "armed", "refreshing", "settling", "idle"]
    assert tab.status() == "No new items"
    assert len(tab.refresh_requests()) == 1


def test_mouse_released_under_the_threshold_requests_nothing(start_server, desktop):
    tab = desktop(start_server(seed="20")).open()
    tab.handled(tab.mouse_pull, 90)
    tab.wait_state("idle")
    tab.settled()  # sprung back
    assert tab.states() == ["idle", "pulling", "idle"]
    assert tab.refresh_requests() == []


def test_a_second_pull_while_refreshing_does_nothing(start_server, phone):
    tab = phone(start_server(seed="20")).open()
    slow = Hold(tab.page, "**/api/refresh*")  # the first refresh runs until the second pull is over
    tab.touch_pull(220)
    tab.wait_state("refreshing")
    tab.handled(tab.touch_pull, 220)  # the second pull, over
    assert tab.state() == "refreshing"
    assert tab.status() == "Updating…"
    slow.release()
    tab.wait_state("idle")
    tab.settled()  # the panel has closed: a second refresh would have begun by now
    assert len(tab.refresh_requests()) == 1
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]


def test_a_pull_that_does_not_start_at_the_top_does_nothing(start_server, phone):
    tab = phone(start_server(seed="30")).open()
    tab.page.mouse.wheel(0, 400)  # scroll down a little
    tab.page.wait_for_function("() => scrollY > 100")
    tab.wait_still()
    tab.handled(tab.touch_pull, 220)
    tab.wait_still()
    assert tab.states() == ["idle"]
    assert tab.refresh_requests() == []


def test_keyboard_refresh_with_tab_and_enter(start_server, desktop):
    server = start_server(seed="20")
    tab = desktop(server).open()
    http_json(server, "POST", "/api/items", {"title": "one", "body": "b", "author": "t"}, expect=201)
    http_json(server, "POST", "/api/items", {"title": "two", "body": "b", "author": "t"}, expect=201)
    http_json(server, "POST", "/api/items", {"title": "three", "body": "b", "author": "t"}, expect=201)
    assert tab.tab_to("refresh", presses=5)
    tab.page.keyboard.press("Enter")
    tab.wait_state("refreshing")
    tab.wait_state("idle")
    assert tab.status() == "3 new items"
    assert [t for t in tab.page.eval_on_selector_all("#feed article h2", "hs => hs.map(h => h.textContent)")[:3]] \
        == ["three", "two", "one"]
    assert len(tab.refresh_requests()) == 1
    assert UPDATED.match(tab.page.text_content("#updated"))


def test_reduced_motion_still_goes_through_every_state(start_server, phone):
    server = start_server("--delay-ms", "300", seed="20")
    tab = phone(server, reduced_motion="reduce").open()
    assert tab.page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    tab.touch_pull(220)
    tab.wait_state("refreshing")
    assert tab.page.eval_on_selector(".ptr-spinner", "s => getComputedStyle(s).animationName") == "none"
    tab.wait_state("idle")
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]
    assert len(tab.refresh_requests()) == 1


def test_chinese_texts_with_lang_zh(start_server, phone):
    tab = phone(start_server(seed="20")).open("?lang=zh")
    assert tab.page.get_attribute("html", "lang") == "zh-CN"
    assert tab.page.text_content("#refresh") == "刷新"
    expect(tab.page.locator(".ptr-updated")).to_have_text("尚未更新")
    tab.touch_pull(60, release=False)
    tab.wait_state("pulling")
    assert tab.status() == "下拉可以刷新"
    tab.touch("touchMove", 200, 470)
    tab.wait_state("armed")
    assert tab.status() == "松开立即刷新"
    tab.touch("touchEnd")
    tab.wait_state("idle")
    assert "refreshing" in tab.states()
    assert tab.status() == "没有新内容"
    assert tab.page.text_content(".ptr-updated").startswith("最后更新：")

"""The pull panel driven by real touch and mouse input."""
import re

from conftest import api

UPDATED = re.compile(r"^Last updated on \d\d/\d\d/\d{4} \d\d:\d\d [AP]M$")


def arrow_rotation(tab):
    return tab.page.eval_on_selector(".ptr-arrow", "a => getComputedStyle(a).transform")


def test_touch_pull_goes_through_every_state_and_shows_the_new_item(start_server, phone):
    server = start_server("--delay-ms", "400", seed="20")
    tab = phone(server).open()
    api(server, "POST", "/api/items", {"title": "Fresh from the oven", "body": "b", "author": "t"})
    assert tab.page.text_content(".ptr-updated") == "Not updated yet"

    tab.touch_pull(60, release=False)  # 60 px of finger is under the threshold after resistance
    tab.wait_state("pulling")
    assert tab.status() == "Pull down to refresh…"
    assert arrow_rotation(tab) in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    assert tab.page.eval_on_selector("#list", "l => l.style.transform") != ""

    for i in range(1, 11):  # on to 200 px: armed
        tab.touch("touchMove", 200, 310 + 14 * i)
        tab.page.wait_for_timeout(16)
    tab.wait_state("armed")
    assert tab.status() == "Release to refresh…"
    tab.page.wait_for_timeout(350)  # the arrow's turn
    assert arrow_rotation(tab).startswith("matrix(-1, ")

    tab.touch("touchEnd")
    tab.wait_state("refreshing")
    assert tab.status() == "Updating…"
    assert tab.page.is_visible(".ptr-spinner")
    tab.wait_state("idle")
    assert tab.states() == ["idle", "pulling", "armed", "refreshing", "settling", "idle"]
    assert tab.status() == "1 new item"
    assert tab.page.text_content("#feed article h2") == "Fresh from the oven"
    assert UPDATED.match(tab.page.text_content(".ptr-updated"))
    assert len(tab.refresh_requests()) == 1
    assert tab.errors == []


def test_touch_released_under_the_threshold_springs_back_and_requests_nothing(start_server, phone):
    tab = phone(start_server(seed="20")).open()
    tab.touch_pull(80)
    tab.wait_state("idle")
    tab.page.wait_for_timeout(800)
    assert "pulling" in tab.states()
    assert "armed" not in tab.states()
    assert tab.refresh_requests() == []
    assert tab.page.eval_on_selector("#list", "l => l.style.transform") == ""

"""The Doctor view (doctor.html) in Chromium: a scripted app's findings and its last requests, a
new finding pushed while the view is open, the token beyond loopback, the Demo panel's link; and the
page as the reference client: its Try again waits out Retry-After."""
import pytest
from playwright.sync_api import expect

from pulldownkit.client import call, get
from pulldownkit.doctor import browser_findings

TOKEN = "doctor-view-token"


def bad_app(server, name, *sizes):
    """An app that asks the newest page, and then again without its tag in each of `sizes` (each
    a poll-without-validator; another size each, so no duplicate)."""
    for size in (10, *(sizes or (12,))):
        get(server, f"/api/items?limit={size}", headers={"User-Agent": name})


def open_view(tab, fragment=""):
    tab.page.goto(f"{tab.server.url}/doctor.html{fragment}")
    return tab


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_an_app_s_finding_shows_with_its_advice_and_its_last_requests(start_server, request, device):
    server = start_server(seed="20")
    bad_app(server, "Sloppy/1.0")
    tab = open_view(request.getfixturevalue(device)(server))
    card = tab.page.locator(".client", has_text="Sloppy/1.0")
    expect(card.locator(".rule")).to_have_text(["poll-without-validator"])
    expect(card.locator(".finding h3")).to_have_text("Polled the newest page without If-None-Match")
    expect(card.locator(".finding")).to_contain_text("If-None-Match")
    expect(card.locator(".finding code").first).to_contain_text("GET /api/items?limit=12 → 200")
    expect(card.locator(".finding code").last).to_contain_text("GET /api/items?limit=10 → 200")
    card.locator("summary").click()
    expect(card.locator(".timeline li")).to_have_count(2)
    expect(card.locator(".timeline li").first).to_contain_text("poll-without-validator")   # newest first
    expect(card.locator(".timeline li.bad")).to_have_count(1)
    assert tab.violations() == []
    assert tab.errors == []


def test_a_new_finding_arrives_while_the_view_is_open(start_server, desktop):
    server = start_server(seed="20")
    tab = desktop(server)
    lists = []

    def first_list_only(route):
        # After the first list, no other is let through: what comes next comes by the stream.
        lists.append(route)
        route.continue_() if len(lists) == 1 else route.abort()
    tab.page.route("**/api/doctor", first_list_only)
    open_view(tab)
    expect(tab.page.locator("#live")).to_be_visible()
    bad_app(server, "Late/2.0")
    expect(tab.page.locator(".client", has_text="Late/2.0").locator(".rule")).to_have_text(["poll-without-validator"])
    get(server, "/api/items?limit=13", headers={"User-Agent": "Late/2.0"})   # once more: the count goes up where it is
    expect(tab.page.locator(".client", has_text="Late/2.0").locator(".count")).to_have_text("×2")


def test_beyond_loopback_the_view_needs_the_presenter_s_link(start_server, phone):
    server = start_server("--host", "0.0.0.0", "--no-qr", "--demo-token", TOKEN, seed="20")
    server.host = "127.0.0.1"
    server.url = f"http://127.0.0.1:{server.port}"
    bad_app(server, "Remote/1.0")
    tab = open_view(phone(server))
    expect(tab.page.locator("#say")).to_contain_text("open the presenter's link")
    open_view(tab, f"#demo={TOKEN}")
    expect(tab.page.locator(".client", has_text="Remote/1.0")).to_be_visible()
    assert tab.page.evaluate("location.hash") == "", "the token leaves the address bar"


def test_with_the_doctor_off_the_view_says_so(start_server, phone):
    tab = open_view(phone(start_server("--doctor", "off", seed="5")))
    expect(tab.page.locator("#say")).to_have_text("The client doctor is off on this server (--doctor off).")


def test_the_demo_panel_links_to_the_view_in_the_same_tab(start_server, phone):
    tab = phone(start_server(seed="20")).open()
    tab.page.tap("#demo")
    tab.page.get_by_role("link", name="Client doctor: what the apps calling this server did wrong").tap()
    tab.page.wait_for_url("**/doctor.html")
    expect(tab.page.locator("h1")).to_have_text("Client doctor")


def timing(request):
    """When `request` started and when its answer was in, in ms, as Chromium took them."""
    return request.timing["startTime"], request.timing["startTime"] + request.timing["responseEnd"]


def finished(tab, method, path):
    """Waits for the next request of METHOD PATH the page makes to be answered; its `timing`."""
    return tab.page.expect_event("requestfinished", lambda r: r.method == method and r.url.split("?")[0].endswith(path))


def test_try_again_after_a_failed_refresh_waits_out_retry_after(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server).open()
    assert call(server, "POST", "/api/demo/faults", json={"on": "refresh", "status": 503}).status == 201
    with finished(tab, "POST", "/api/refresh") as refused:
        tab.refresh_by(tab.page.tap, "#refresh")
    expect(tab.page.locator("#error")).to_be_visible()
    # As soon as the panel takes a refresh again (0.7 s after the failure): the page waits out the
    # rest of the Retry-After it was given.
    with finished(tab, "POST", "/api/refresh") as again:
        tab.refresh_by(tab.page.tap, "#retry")
    expect(tab.page.locator("#error")).to_be_hidden()
    assert timing(again.value)[0] - timing(refused.value)[1] >= 1000
    assert browser_findings(server) == []


def test_try_again_after_a_failed_page_waits_out_retry_after(start_server, phone):
    tab = phone(start_server(seed="30")).open()
    refusals = []

    def refuse_once(route):
        # A Retry-After longer than a tap takes, so that a retry sent at once shows.
        if refusals:
            return route.continue_()
        refusals.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "3", "Cache-Control": "no-store"},
                      content_type="application/problem+json",
                      body='{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Try again later."}')
    tab.page.route("**/api/items?*before=*", refuse_once)
    with finished(tab, "GET", "/api/items") as refused:
        tab.to_bottom("!document.getElementById('more-retry').hidden")
    with finished(tab, "GET", "/api/items") as again:
        tab.page.tap("#more-retry")
    assert again.value.url == refused.value.url == refusals[0]
    assert timing(again.value)[0] - timing(refused.value)[1] >= 3000

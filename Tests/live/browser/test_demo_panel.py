"""The page's Demo panel: the header's Demo button opens a dialog that steers the demo API while
the page runs. Real clicks, keys and touch; the changes made "from elsewhere" are HTTP requests
from the test, as curl would send them. Servers beyond loopback listen on 0.0.0.0, but the
browser and the test reach them only over 127.0.0.1: no traffic leaves the machine."""
import pytest
from playwright.sync_api import expect

from pulldownkit.client import call, get, http_json

TOKEN = "panel-presenter-token"
DIALOG = "dialog.demo"


def knobs(server, headers=None):
    reply = get(server, "/api/demo", headers=headers or {})
    assert reply.status == 200, reply
    return reply.json()


def field(tab, name):
    return tab.page.locator(f"{DIALOG} input[name={name}]")


def type_into(tab, name, text, then=None, touch=False):
    """Taps (or clicks) the knob's field, types `text` over what it shows, then presses `then`
    (Tab or Enter commit the number: it is sent) unless None."""
    box = field(tab, name)
    box.tap() if touch else box.click()
    tab.page.keyboard.press("Control+A")
    tab.page.keyboard.type(text)
    if then:
        tab.page.keyboard.press(then)
    return box


def say(tab):
    return tab.page.locator(f"{DIALOG} [role=status]")


def open_live(tab, query=""):
    """Opens the page and waits until its event stream is answered, so a change now reaches it."""
    with tab.page.expect_response(lambda r: "/api/events" in r.url):
        tab.open(query)
    return tab


def open_panel(tab):
    """Clicks the Demo button and waits for the panel to show the knobs the server has."""
    with tab.page.expect_response(lambda r: r.url.endswith("/api/demo") and r.request.method == "GET"):
        tab.page.click("#demo")
    expect(tab.page.locator(DIALOG)).to_be_visible()
    expect(field(tab, "delayMs")).not_to_have_value("")
    return tab.page.locator(DIALOG)


def control(tab):
    """The panel's control that has the focus: its name, else what a screen reader calls it."""
    return tab.page.evaluate("""() => { const c = document.activeElement;
        return c.closest('dialog.demo') ? c.name || c.ariaLabel || c.textContent : 'outside the panel'; }""")


def focused(tab):
    return tab.page.evaluate("() => document.activeElement.id || document.activeElement.name || document.activeElement.localName")


def beyond_loopback(start_server):
    """A server on every interface with a known token, reached over 127.0.0.1."""
    server = start_server("--host", "0.0.0.0", "--no-qr", "--demo-token", TOKEN, seed="20")
    server.host = "127.0.0.1"
    server.url = f"http://127.0.0.1:{server.port}"
    return server


def test_a_click_opens_the_panel_with_the_knobs_and_escape_gives_the_focus_back(start_server, desktop):
    server = start_server("--delay-ms", "40", "--jitter-ms", "7", seed="20")
    tab = desktop(server).open()
    expect(tab.page.locator("#demo")).to_be_visible()  # written shown into `/`: open on loopback
    panel = open_panel(tab)
    assert [field(tab, name).input_value() for name in ("delayMs", "jitterMs", "failRate", "newItemsEvery")] \
        == ["40", "7", "0", "0"]
    expect(panel).to_have_accessible_name("Demo")
    tab.page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert focused(tab) == "demo"
    # Open again: the same panel, from the module already loaded.
    open_panel(tab)
    assert tab.page.locator(DIALOG).count() == 1
    tab.page.click(f"{DIALOG} .demo-head button")
    expect(panel).to_be_hidden()
    assert focused(tab) == "demo"
    assert tab.errors == []


def test_the_keyboard_opens_the_panel_moves_through_its_controls_and_closes_it(start_server, desktop):
    tab = desktop(start_server(seed="20")).open()
    assert tab.tab_to("demo")
    tab.page.keyboard.press("Enter")
    panel = tab.page.locator(DIALOG)
    expect(panel).to_be_visible()
    expect(field(tab, "delayMs")).not_to_have_value("")
    reached = [control(tab)]
    for _ in range(12):
        tab.page.keyboard.press("Tab")
        reached.append(control(tab))
    # This device's presets are one radio group: one stop, its arrows move between them.
    assert reached == ["Close", "profile", "delayMs", "jitterMs", "failRate", "status", "Fail the next refresh",
                       "Fail the next page", "newItemsEvery", "Add 3 items now", "editsPerMinute", "deletesPerMinute",
                       "Edit 3, delete 1 now"]
    tab.page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert focused(tab) == "demo"


def test_every_control_has_a_label_that_a_screen_reader_reads(start_server, desktop):
    tab = desktop(start_server(seed="20")).open()
    open_panel(tab)
    page = tab.page
    for name, label in [("delayMs", "Delay (ms)"), ("jitterMs", "Jitter (ms)"), ("failRate", "Failure rate"),
                        ("newItemsEvery", "Every (s, 0: never)"), ("editsPerMinute", "Edits a minute"),
                        ("deletesPerMinute", "Deletions a minute")]:
        expect(page.get_by_role("spinbutton", name=label)).to_have_attribute("name", name)
    expect(page.get_by_role("combobox", name="Status")).to_have_value("503")
    expect(page.get_by_role("group", name="This device").get_by_role("radio")).to_have_count(4)
    expect(page.get_by_role("radio", name="None")).to_be_checked()
    expect(page.get_by_role("radio", name="3G")).to_have_attribute("value", "3g")
    for name in ["Close", "Fail the next refresh", "Fail the next page", "Add 3 items now", "Edit 3, delete 1 now"]:
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()


def test_a_delay_typed_on_the_phone_is_what_get_api_demo_then_says(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server).open()
    tab.page.tap("#demo")
    expect(tab.page.locator(DIALOG)).to_be_visible()
    expect(field(tab, "delayMs")).to_have_value("0")
    with tab.page.expect_request(lambda r: r.method == "PATCH") as sent:
        type_into(tab, "delayMs", "250", then="Tab", touch=True)
    assert sent.value.headers["content-type"] == "application/merge-patch+json"
    assert sent.value.post_data_json == {"delayMs": 250}
    expect(say(tab)).to_have_text("Changed.")
    assert knobs(server)["delayMs"] == 250


def test_a_value_the_server_refuses_is_said_in_the_panel_and_nothing_changes(start_server, desktop):
    server = start_server(seed="20")
    tab = desktop(server).open()
    open_panel(tab)
    before = knobs(server)
    rate = type_into(tab, "failRate", "3", then="Enter")
    expect(say(tab)).to_have_text("Not changed. Failure rate: between 0 and 1.")  # the range once
    expect(rate).to_have_attribute("aria-invalid", "true")
    assert knobs(server) == before


def test_fail_the_next_refresh_then_a_pull_shows_the_error_and_the_next_pull_works(start_server, phone):
    server = start_server(seed="20")
    tab = phone(server).open()
    tab.page.tap("#demo")
    status = tab.page.locator(f"{DIALOG} select")
    expect(status).to_have_value("503")
    status.focus()
    tab.page.keyboard.press("ArrowDown")  # 500
    expect(status).to_have_value("500")
    tab.page.get_by_role("button", name="Fail the next refresh").tap()
    expect(say(tab)).to_have_text("The next refresh fails with 500.")
    assert get(server, "/api/demo/faults").json() == {"pending": [{"on": "refresh", "status": 500, "count": 1}]}
    tab.page.get_by_role("button", name="Close").tap()
    expect(tab.page.locator(DIALOG)).to_be_hidden()
    with tab.page.expect_response(lambda r: "/api/refresh" in r.url) as failed:
        tab.refresh_by(tab.touch_pull, 220)
    assert failed.value.status == 500
    expect(tab.page.locator("#error")).to_be_visible()
    expect(tab.page.locator("#error-text")).to_have_text("Couldn't refresh.")
    with tab.page.expect_response(lambda r: "/api/refresh" in r.url) as healed:
        tab.refresh_by(tab.touch_pull, 220)
    assert healed.value.status == 200
    expect(tab.page.locator("#error")).to_be_hidden()


def test_fail_the_next_page_and_add_three_items(start_server, desktop):
    server = start_server(seed="20")
    tab = open_live(desktop(server))
    open_panel(tab)
    tab.page.click(f"{DIALOG} >> text=Fail the next page")
    expect(say(tab)).to_have_text("The next page fails with 503.")
    assert get(server, "/api/demo/faults").json() == {"pending": [{"on": "page", "status": 503, "count": 1}]}
    # The page has all 20 items and asks for no more: the next page asked for is this one.
    assert get(server, "/api/items?limit=50").status == 503
    tab.page.click(f"{DIALOG} >> text=Add 3 items now")
    expect(say(tab)).to_have_text("3 items added.")
    assert len(get(server, "/api/items?limit=50").json()["items"]) == 23
    tab.page.keyboard.press("Escape")
    expect(tab.page.locator("#pill")).to_have_text("3 new items")


def test_a_change_sent_from_outside_shows_up_in_the_open_panel(start_server, phone):
    server = start_server(seed="20")
    tab = open_live(phone(server))
    tab.page.tap("#demo")
    expect(field(tab, "delayMs")).to_have_value("0")
    http_json(server, "PATCH", "/api/demo", {"delayMs": 1234, "failRate": 0.25, "newItemsEvery": 9}, expect=200)
    expect(field(tab, "delayMs")).to_have_value("1234")
    expect(field(tab, "failRate")).to_have_value("0.25")
    expect(field(tab, "newItemsEvery")).to_have_value("9")
    # A number being typed is left alone; the others still follow.
    jitter = type_into(tab, "jitterMs", "77", touch=True)
    http_json(server, "PATCH", "/api/demo", {"delayMs": 5}, expect=200)
    expect(field(tab, "delayMs")).to_have_value("5")
    expect(jitter).to_have_value("77")


@pytest.mark.parametrize("lang,title,add,refused", [
    ("en", "Demo", "Add 3 items now", "Not changed. Delay (ms): between 0 and 600,000."),
    ("zh", "演示", "立即添加 3 条", "未更改。延迟（毫秒）：须在 0 到 600,000 之间。"),
])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_axe_finds_nothing_with_the_panel_open(start_server, request, device, lang, title, add, refused):
    tab = request.getfixturevalue(device)(start_server(seed="20")).open(f"?lang={lang}")
    expect(tab.page.locator("#demo")).to_have_text(title)
    open_panel(tab)
    expect(tab.page.locator(DIALOG)).to_have_accessible_name(title)
    expect(tab.page.locator(f"{DIALOG} >> text={add}")).to_be_visible()
    assert tab.violations() == []
    # With an error said too.
    type_into(tab, "delayMs", "999999", then="Enter")
    expect(field(tab, "delayMs")).to_have_attribute("aria-invalid", "true")
    expect(say(tab)).to_have_text(refused)
    assert tab.violations() == []


def test_on_a_phone_the_panel_is_a_sheet_at_the_bottom(start_server, phone):
    tab = phone(start_server(seed="20")).open()
    tab.page.tap("#demo")
    box = tab.page.locator(DIALOG).bounding_box()
    assert box["x"] == 0 and box["width"] == 390
    assert abs(box["y"] + box["height"] - 844) <= 1
    tab.page.touchscreen.tap(200, 40)  # the backdrop above the sheet
    expect(tab.page.locator(DIALOG)).to_be_hidden()


def test_no_button_where_the_demo_api_is_off(start_server, desktop):
    server = start_server("--demo-api", "off", seed="20")
    tab = desktop(server).open()
    expect(tab.page.locator("#demo")).to_be_hidden()
    assert tab.page.get_attribute("#demo", "data-demo") is None, "no token to wait for either"
    assert get(server, "/api/demo").status == 404


def test_beyond_loopback_no_button_without_the_token(start_server, desktop):
    server = beyond_loopback(start_server)
    tab = desktop(server).open()
    assert tab.page.get_attribute("#demo", "data-demo") == "token"
    expect(tab.page.locator("#demo")).to_be_hidden()
    assert TOKEN not in tab.page.content()


def test_beyond_loopback_the_presenter_url_brings_the_token_which_every_demo_request_carries(start_server, phone):
    server = beyond_loopback(start_server)
    tab = phone(server)
    demo_requests = []
    tab.page.on("request", lambda r: "/api/demo" in r.url and demo_requests.append(r))
    tab.open(f"#demo={TOKEN}")
    expect(tab.page.locator("#demo")).to_be_visible()
    assert "#" not in tab.page.url and TOKEN not in tab.page.url
    tab.page.tap("#demo")
    expect(field(tab, "delayMs")).to_have_value("0")
    type_into(tab, "delayMs", "300", then="Tab", touch=True)
    expect(say(tab)).to_have_text("Changed.")
    assert knobs(server, {"Authorization": f"Bearer {TOKEN}"})["delayMs"] == 300
    assert {r.method for r in demo_requests} == {"GET", "PATCH"}
    assert all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in demo_requests)
    # The token is kept for the session: a reload still has the button, and the URL no token.
    tab.page.reload()
    expect(tab.page.locator("#demo")).to_be_visible()
    assert "#" not in tab.page.url


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_beyond_loopback_the_presenter_url_opened_in_a_tab_that_shows_the_feed_brings_the_token(
        start_server, request, device):
    server = beyond_loopback(start_server)
    tab = request.getfixturevalue(device)(server).open()
    expect(tab.page.locator("#demo")).to_be_hidden()
    tab.page.evaluate("() => { window.__samePage = true; }")
    tab.page.goto(f"{server.url}/#demo={TOKEN}")  # only the fragment differs: a same-document navigation
    expect(tab.page.locator("#demo")).to_be_visible()
    assert tab.page.evaluate("() => window.__samePage"), "the page was not loaded again"
    assert "#" not in tab.page.url and TOKEN not in tab.page.url
    with tab.page.expect_request(lambda r: r.url.endswith("/api/demo")) as asked:
        tab.page.locator("#demo").tap() if device == "phone" else tab.page.click("#demo")
    assert asked.value.headers.get("authorization") == f"Bearer {TOKEN}"
    expect(field(tab, "delayMs")).to_have_value("0")
    assert tab.errors == []


def test_beyond_loopback_a_wrong_token_is_said_in_the_panel(start_server, desktop):
    server = beyond_loopback(start_server)
    tab = desktop(server).open("#demo=not-the-token")
    expect(tab.page.locator("#demo")).to_be_visible()
    tab.page.click("#demo")
    expect(say(tab)).to_have_text("The demo token was not accepted. Open the presenter's link again.")
    assert call(server, "GET", "/api/demo").status == 401


def test_the_panel_turns_churn_on_and_edits_and_deletes_items_now(start_server, desktop):
    server = start_server(seed="20")
    tab = desktop(server).open()
    open_panel(tab)
    edits = field(tab, "editsPerMinute")
    expect(edits).to_have_value("0")
    expect(edits).to_have_attribute("max", "60000")  # the range the OpenAPI document gives, read as the panel opens
    with tab.page.expect_response(lambda r: r.request.method == "PATCH") as sent:
        edits.fill("30")
        edits.press("Enter")
    assert sent.value.status == 200
    assert http_json(server, "GET", "/api/demo")[2]["editsPerMinute"] == 30
    with tab.page.expect_response(lambda r: r.url.endswith("/api/demo/churn")) as churned:
        tab.page.get_by_role("button", name="Edit 3, delete 1 now", exact=True).click()
    kinds = sorted(change["type"] for change in churned.value.json()["changed"])
    assert kinds == ["deleted", "updated", "updated", "updated"]
    expect(tab.page.locator(f"{DIALOG} .demo-say")).to_have_text("3 items edited, 1 deleted.")
    assert tab.errors == []


def test_a_panel_first_opened_while_the_api_is_offline_gets_its_limits_at_the_next_open(start_server, phone):
    server = start_server("--clock", "manual", seed="5")
    offline = {"steps": [{"at": "0s", "do": "offline", "for": "10s"}]}
    assert call(server, "PUT", "/api/demo/script", json=offline).status == 200
    tab = open_live(phone(server))
    statuses = tab.page.locator(f"{DIALOG} select[name=status] option")
    with tab.page.expect_response(lambda r: r.url.endswith("/api/openapi.json")) as limits:
        open_panel(tab)
    assert limits.value.status == 503
    expect(statuses).to_have_count(0)
    tab.page.get_by_role("button", name="Close").tap()
    assert call(server, "POST", "/api/demo/clock", json={"advance": "10s"}).status == 200
    with tab.page.expect_response(lambda r: r.url.endswith("/api/openapi.json")) as limits:
        open_panel(tab)
    assert limits.value.status == 200
    expect(statuses).to_have_text(["503", "500", "429"])
    expect(field(tab, "delayMs")).to_have_attribute("max", "600000")

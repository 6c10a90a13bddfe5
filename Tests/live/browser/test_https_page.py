"""--https in real Chromium: given the server's root through an NSS database (what Chromium on Linux
trusts besides its own root store), the page loads over HTTPS with no warning and pulls to refresh
under real touch; without it, Chromium refuses the certificate."""
import os
import shutil
import ssl
import subprocess
from types import SimpleNamespace

import pytest
from playwright.sync_api import Error

from conftest import Tab
from pulldownkit.browser import PHONE, launch
from pulldownkit.client import http_json
from pulldownkit.page import TIMEOUT_MS

needs_certutil = pytest.mark.skipif(not shutil.which("certutil"), reason="libnss3-tools is not installed (make deps-test)")


def https_server(start_server, tmp_path, **kwargs):
    server = start_server("--https", **kwargs)
    server.ca = tmp_path / "feed.sqlite.tls" / "ca.pem"
    server.tls = ssl.create_default_context(cafile=str(server.ca))
    return server


def home_trusting(root, folder):
    """A HOME whose NSS database (~/.pki/nssdb, which Chromium reads) trusts `root` to identify servers."""
    nssdb = folder / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True, timeout=30)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Pulldown test root", "-i", str(root)],
                   check=True, timeout=30)
    return folder


@needs_certutil
def test_chromium_given_the_root_loads_the_page_with_no_warning_and_pulls_to_refresh(start_server, tmp_path, browser):
    server = https_server(start_server, tmp_path, seed="20")
    home = home_trusting(server.ca, tmp_path / "home")
    # A Chromium of its own, whose HOME holds the NSS database, started by the session's Playwright
    # (a second Playwright cannot run beside it).
    trusting = launch(SimpleNamespace(chromium=browser.browser_type), env={**os.environ, "HOME": str(home)})
    try:
        context = trusting.new_context(**PHONE)
        tab = Tab(context, server)
        # As the start-up QR code leads a phone: the trust page over plain HTTP, then a tap on to HTTPS,
        # the presenter's fragment kept through /trust/open's redirect.
        tab.page.goto(f"http://127.0.0.1:{server.port}/trust#demo=presenter-token")
        assert tab.violations() == []
        with tab.page.expect_navigation(url=server.url + "/#demo=presenter-token") as navigation:
            tab.page.tap("#open")
        shown = navigation.value
        assert shown.ok
        assert shown.security_details()["issuer"].startswith("Pulldown local CA ("), shown.security_details()
        tab.open()
        http_json(server, "POST", "/api/items", {"title": "Fresh over TLS", "author": "t"}, expect=201)
        tab.refresh_by(tab.touch_pull, 200)
        assert tab.page.text_content("#feed article h2") == "Fresh over TLS"
        assert all(url.startswith("https://") for _, url in tab.requests[tab.requests.index(("GET", server.url + "/")):]), tab.requests
        assert tab.refresh_requests(), "the pull asked the server"
        cookie = next(c for c in context.cookies() if c["name"] == "pulldown_session")
        assert cookie["secure"] and cookie["httpOnly"]
        assert tab.errors == []
    finally:
        trusting.close()


def test_chromium_without_the_root_refuses_the_certificate(start_server, tmp_path, browser):
    server = https_server(start_server, tmp_path, seed="3")
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(server.url + "/", timeout=TIMEOUT_MS)
        # The trust page is reachable all the same, over plain HTTP on the same port (in a page of its
        # own: the first one goes on to Chromium's error page).
        page = context.new_page()
        trust = page.goto(f"http://127.0.0.1:{server.port}/trust", timeout=TIMEOUT_MS)
        assert trust.ok
        assert page.evaluate("document.getElementById('open').href") == f"http://127.0.0.1:{server.port}/trust/open"
    finally:
        context.close()

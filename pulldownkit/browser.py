"""Debian's Chromium through Playwright (no browser download), the two screens the page is
checked on, and waits on what the page says about itself."""
import os

CHROMIUM = os.environ.get("PULLDOWN_CHROMIUM", "/usr/bin/chromium")
PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 800})
# The feed has no page or refresh in flight and has drawn what it holds.
FEED_IDLE = "() => document.getElementById('feed').getAttribute('aria-busy') === 'false'"


def launch(playwright, *args, **options):
    """Headless Chromium from CHROMIUM (PULLDOWN_CHROMIUM), with extra command-line `args` and
    Playwright launch `options` (env=…, say)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", *args], **options)


def wait_feed_idle(page, **options):
    page.wait_for_function(FEED_IDLE, **options)


def wait_panel_state(page, state, **options):
    """Waits until the pull panel's data-state is `state` (idle, pulling, armed, refreshing, settling)."""
    page.wait_for_function("s => document.querySelector('.ptr').dataset.state === s", arg=state, **options)

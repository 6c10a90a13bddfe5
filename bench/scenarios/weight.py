"""Page weight: everything `/` makes Chromium load (the page with its newest page in it, its
scripts and styles), as the network sent it (gzip) and uncompressed, read from the browser's own
network events. The API calls the page makes once it runs, and the items' pictures, are counted
apart."""
from pulldownkit.browser import PHONE, launch, wait_feed_idle
from report import floor
from servers import start_pulldown

# What the page asks for once it runs, not part of what it is made of; and the items' pictures,
# which are the feed's content, not the page's.
API = ("fetch", "xhr", "eventsource")
PICTURES = ("image",)


def run(bench):
    sync_playwright = bench.playwright("page weight")
    if sync_playwright is None:
        return
    server = start_pulldown(bench.tmp, ":memory:", seed=50)
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_context(**PHONE).new_page()
            finished = []
            page.on("requestfinished", lambda request: finished.append(request))
            page.goto(f"http://127.0.0.1:{server.port}/")
            wait_feed_idle(page, timeout=10000)
            files = {}
            api = pictures = 0
            for request in finished:
                sent = request.sizes()["responseBodySize"]  # as encoded on the wire
                if request.resource_type in API:
                    api += sent
                elif request.resource_type in PICTURES:
                    pictures += sent
                else:
                    files[request.url] = (sent, len(request.response().body()))
            browser.close()
    finally:
        server.stop()
    gz = sum(sent for sent, _ in files.values())
    raw = sum(size for _, size in files.values())
    each = ", ".join(f"{url.split('/', 3)[3] or '/'} {sent:,}" for url, (sent, _) in files.items())
    print(f"page weight: {len(files)} files, {raw:,} bytes raw, {gz:,} bytes gzip ({each}); "
          f"API calls once it runs: {api:,} bytes; the items' pictures: {pictures:,} bytes")
    floor("page weight gzip (KB)", gz / 1024, 12, "lower")

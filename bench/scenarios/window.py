"""The windowed feed at depth, in Chromium (bench.py --only window).

A 390x844 page on a store of 100,000 items (the demo's: an avatar on each, a picture on three in
ten) scrolls down page after page with real wheel input
(CDP mouse wheel events; smooth scrolling is off so that a wheel step is not an animation). The
baseline is the same run's first 50 pages: the last 50 pages must cost what those did, the DOM must
stay bounded and the heap flat. Then the reader goes back to item 10,000 and reloads: the time until
that article is painted again is shown beside a fresh load of the newest page.
"""
import statistics
import time

from pulldownkit.browser import FEED_IDLE, launch
from report import floor
from servers import start_pulldown

PAGE = 10  # items per page: the server's --page-size, given below, which the page follows
EDGE = 50  # pages at the start (the baseline) and at the end that are compared
DEADLINE_S = 900  # the run stops here whatever happened

# Frame times kept in the page: the longest rAF interval and long-animation-frame since `reset`.
PROBE = """
window.__bench = { frame: 0, loaf: 0, painted: null, shift: 0 };
(() => {
  // Every layout shift while scrolling: a picture arriving must move nothing.
  new PerformanceObserver(l => { for (const e of l.getEntries()) __bench.shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  let last = performance.now();
  const tick = now => { __bench.frame = Math.max(__bench.frame, now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new PerformanceObserver(l => { for (const e of l.getEntries()) __bench.loaf = Math.max(__bench.loaf, e.duration); })
    .observe({ type: 'long-animation-frame' });
  // The first paint of the article named in sessionStorage 'bench-target' (else of any article).
  const want = sessionStorage.getItem('bench-target');
  new MutationObserver((_, o) => {
    if (!document.querySelector(want ? `#feed article[data-id="${want}"]` : '#feed article')) return;
    o.disconnect();
    requestAnimationFrame(() => { __bench.painted = performance.now(); });
  }).observe(document, { childList: true, subtree: true });
})();
"""
RESET = "() => { __bench.frame = 0; __bench.loaf = 0; }"


def is_next_page(response):
    return "/api/items?before=" in response.url


def heap_mb(cdp):
    cdp.send("HeapProfiler.collectGarbage")
    return cdp.send("Runtime.getHeapUsage")["usedSize"] / 2**20


def run(bench):
    """Scrolls 2,000 pages (300 with --quick) and prints the figures."""
    pages = 300 if bench.quick else 2000
    sync_playwright = bench.playwright("window scenario")
    if sync_playwright is None:
        return
    server = start_pulldown(bench.tmp, bench.tmp / "window.sqlite", "--page-size", str(PAGE), seed=100_000)
    url = f"http://127.0.0.1:{server.port}/"
    started = time.monotonic()
    try:
        with sync_playwright() as p:
            browser = launch(p, "--disable-smooth-scrolling")
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_init_script(PROBE)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            page.goto(url)
            page.wait_for_selector("#feed article")
            page.wait_for_function(FEED_IDLE)
            page.mouse.move(195, 500)
            next_pages = []
            page.on("request", lambda r: is_next_page(r) and next_pages.append(r.url))
            times, frames, heap, y_at_10k = [], {}, {}, None
            page.evaluate(RESET)
            for k in range(1, pages + 1):
                if time.monotonic() - started > DEADLINE_S:
                    print(f"window: stopped at the deadline after {k - 1} pages")
                    break
                if k == pages - EDGE + 1:
                    page.evaluate(RESET)
                t0 = time.perf_counter()
                with page.expect_response(is_next_page, timeout=30_000):
                    # Down until the next page is asked for: pages with pictures are taller than a
                    # wheel step, and the page grows as the window measures what it draws.
                    asked = len(next_pages)
                    for _ in range(50):
                        page.mouse.wheel(0, 1000)
                        if len(next_pages) > asked:
                            break
                page.wait_for_function(FEED_IDLE, polling="raf", timeout=30_000)
                times.append(time.perf_counter() - t0)
                if k == EDGE:
                    frames["first"] = page.evaluate("[__bench.frame, __bench.loaf]")
                    heap["first"] = heap_mb(cdp)
                if PAGE * (k + 1) == 10_000:  # the viewport is at the end: item 10,000
                    y_at_10k = page.evaluate("scrollY")
            done = len(times)
            frames["last"] = page.evaluate("[__bench.frame, __bench.loaf]")
            heap["last"] = heap_mb(cdp)
            articles = page.evaluate("document.querySelectorAll('#feed article').length")
            shift = page.evaluate("__bench.shift")
            drawn = page.evaluate("performance.getEntriesByType('resource').filter(e => e.initiatorType === 'img').length")
            total = PAGE * (done + 1)

            # Back to item 10,000, then reload there (and alternately load the newest page fresh).
            restored, fresh = [], []
            if y_at_10k is not None:
                page.evaluate("y => scrollTo(0, y)", y_at_10k)
                page.wait_for_function("() => !document.querySelector('#feed > div:not([class])[data-id]')")
                page.wait_for_timeout(200)
                target = page.evaluate("""() => { const edge = document.querySelector('.bar').getBoundingClientRect().bottom;
                    return [...document.querySelectorAll('#feed article')].find(a => a.getBoundingClientRect().bottom > edge).dataset.id; }""")
                page.evaluate("id => sessionStorage.setItem('bench-target', id)", target)
                other = context.new_page()
                for _ in range(5):
                    page.reload()
                    page.wait_for_function("() => window.__bench.painted !== null", timeout=10_000)
                    restored.append(page.evaluate("__bench.painted"))
                    other.goto(url)
                    other.wait_for_function("() => window.__bench.painted !== null", timeout=10_000)
                    fresh.append(other.evaluate("__bench.painted"))
            browser.close()
    finally:
        server.stop()

    per_page = lambda xs: statistics.mean(xs) * 1000
    first, last = per_page(times[:EDGE]), per_page(times[-EDGE:])
    print(f"window: {done} pages ({total:,} items) in {sum(times):.0f} s; time per page {first:.1f} ms over the "
          f"first {EDGE} pages, {last:.1f} ms over the last {EDGE}; {articles} articles in the DOM at the end; "
          f"JS heap {heap['first']:.2f} MB after {EDGE} pages, {heap['last']:.2f} MB at the end (after GC); "
          f"longest frame {frames['first'][0]:.1f} ms in the first {EDGE} pages, {frames['last'][0]:.1f} ms in the "
          f"last {EDGE} (long animation frames: {frames['first'][1]:.0f} / {frames['last'][1]:.0f} ms); "
          f"{drawn:,} pictures fetched, cumulative layout shift {shift:.4f}")
    floor(f"window: time per page, last {EDGE} / first {EDGE}", last / first, 1.2, "lower")
    floor("window: articles in the DOM at the end", articles, 100, "lower")
    floor("window: cumulative layout shift while scrolling through pictures", shift, 0, "lower")
    floor(f"window: JS heap at the end / after {EDGE} pages", heap["last"] / heap["first"], 2, "lower")
    floor(f"window: longest frame in the last {EDGE} pages (ms)", frames["last"][0], 50, "lower")
    floor(f"window: pages scrolled (of {pages})", done, pages)
    if restored:
        print(f"window: reload at item 10,000 paints the saved article {statistics.median(restored):.0f} ms after "
              f"navigation (median of {len(restored)}); a fresh load paints the newest page in "
              f"{statistics.median(fresh):.0f} ms")

// The feed page: a windowed list of articles (feed-state.js says which), pull to refresh, infinite
// scroll, day headers, skeleton rows, errors, the empty feed, texts, the position kept across
// Back and reload, items edited and deleted under the reader without moving what is read, and
// starting over when the server's feed is another one.
import * as api from './api.js';
import { pageTexts, dayNumber, dayStart, dayLabel } from './i18n.js';
import { PullToRefresh } from './pull-to-refresh.js';
import { FeedState } from './feed-state.js';
import { el } from './dom.js';
import { article, localise, tell } from './article.js';
import { LiveFeed } from './live.js';
import { demoButton } from './demo/button.js';
import { actLine } from './act.js';

const KEY = 'pulldown-feed';
const back = /reload|back_forward/.test(performance.getEntriesByType('navigation')[0]?.type);
const saved = back && JSON.parse(sessionStorage.getItem(KEY));
// `/#item=ID` (the item page's "Show in feed") opens the feed on that item, unless coming back.
const target = !saved && +location.hash.match(/^#item=(\d+)$/)?.[1];
// The newest page as the server wrote it into the page: its articles are in #feed already, and
// the data block is the rest of its JSON. Each served article stands for its item (its id and
// time are all the window needs) and is put back whenever its item comes back into view
// (`servedArticles`), so the items' text is sent once. Without the block (the store did not
// answer), the page asks for the first page.
const data = document.getElementById('first-page');
const servedArticles = new Map(!saved && !target && data ? [...document.querySelectorAll('#feed article')].map(a => [+a.dataset.id, a]) : []);
const served = !saved && !target && data && { ...JSON.parse(data.textContent),
  items: [...servedArticles].map(([id, a]) => ({ id, createdAt: a.querySelector('time').dateTime,
    editedAt: a.querySelector('.edited')?.dataset.at })) };
data?.remove();
const session = api.session(); // first: the page's other requests wait for it (api.js)
const early = !saved && !served && !target && api.items(); // the first page, asked for before the texts come
early && early.catch(() => {});
session.catch(() => {});
history.scrollRestoration = 'manual'; // the position is ours to restore: the window decides the page's height

const t = await pageTexts(), locale = t.locale;
const $ = id => document.getElementById(id);
demoButton($('demo'), t); // its panel hears the stream's demo events (live.js)
actLine($('act'));

const feed = $('feed'), more = $('more'), error = $('error'), note = $('note'), bar = document.querySelector('.bar');
feed.setAttribute('aria-label', t.feed);
$('curl').textContent = `curl ${location.origin}/api/items \\\n  -H 'Content-Type: application/json' \\\n  -d '{"title": "Hello"}'`;
const s = new FeedState({ dayOf: item => dayNumber(new Date(item.createdAt)) });
const nodes = new Map(); // item id, or 'd' + day for a header -> its node, for what is in the window
const above = el('div'), below = el('div'); // the spacers that stand for everything outside it
const written = [...feed.children]; // what the server wrote: the newest page's articles and day headers
feed.prepend(above);
feed.append(below);
let running; // the fetch FeedState's `busy` names, to wait for: run() alone sets it
// paging.js (the gap's row, "Back to newest"), loaded by the paths that need it, before they do.
let rows, newest;
const loadRows = () => import('./paging.js').then(m => { rows = m; });

const ptr = new PullToRefresh($('list'), {
  onRefresh: refresh,
  texts: { pull: t.pull, release: t.release, refreshing: t.refreshing, failed: t.refreshFailed },
});

// New items from the stream wait behind the pill; using it brings them in by the same refresh.
const live = new LiveFeed({
  pill: $('pill'), region: $('news'), text: t.n,
  onUse: () => {
    scrollTo(0, 0); // the new items go on top, where the reader now is
    ptr.beginRefreshing()?.then(() => {
      const at = document.activeElement; // the pill, gone now: the focus goes to the newest item
      if (at === $('pill') || at === document.body) nodes.get(s.newest)?.focus({ preventScroll: true });
    });
  },
  onReset: () => startOver(),
  onUpdated: (item, id) => { s.saw(id); if (s.updated(item)) redraw([item.id]); },
  onDeleted: (itemId, id) => { s.saw(id); remove(itemId); },
  onExpired: () => ptr.beginRefreshing(), // a refresh says what changed, or starts over
});

function setUpdated(iso) {
  const text = t.updated(iso ? new Date(iso) : null);
  ptr.setLastUpdated(text);
  $('updated').textContent = text;
}
// The session's answer first; a refresh's, registered later, is set after it.
session.then(r => setUpdated(r.lastUpdated), () => setUpdated(null));

// What the reader is looking at: the first item below the bar (other than those `leaving`), and
// where it is on screen.
function anchor(leaving = new Set()) {
  const edge = bar.getBoundingClientRect().bottom;
  for (const n of feed.children) {
    const r = n.dataset.id && !leaving.has(+n.dataset.id) && n.getBoundingClientRect();
    if (r && r.bottom > edge) return { id: +n.dataset.id, top: r.top };
  }
}

const label = day => dayLabel(dayStart(day), new Date(), t);

function head(day) {
  const h = el('div', label(day), 'day-head');
  h.setAttribute('aria-hidden', 'true');
  return h;
}

/** A grey card `h` px tall, its gap below included, where an article is awaited. In the feed it
 *  is an article being loaded, to assistive technology too; elsewhere it is only a picture. */
function skeleton(h, inFeed) {
  const n = el('div', null, 'skeleton');
  n.style.height = `calc(${h}px - var(--gap))`;
  if (inFeed) Object.assign(n, { role: 'article', ariaBusy: 'true', ariaLabel: t.loading });
  else n.ariaHidden = 'true';
  return n;
}

// A window item's node: its article, or, until its text is fetched again, a skeleton as tall.
function node({ id, item, h }) {
  const old = nodes.get(id);
  if (old && (old.localName === 'article' || !item)) return old;
  old?.remove();
  const kept = item && servedArticles.get(id);
  if (kept) localise(kept, item, t); // its time is told afresh
  const n = item ? kept || article(item, t) : skeleton(h, true);
  n.dataset.id = id;
  nodes.set(id, n);
  return n;
}

/** Puts the window into the DOM: nodes that left are removed, new ones inserted, none is moved
 *  (moving a focused article would blur it). Then measures the new ones (`all`: every article,
 *  the served page's the first time), sets the spacers and scrolls so the anchor stays where it
 *  was. Returns the new articles. */
function render(keep = scrollY > 0 && anchor(), all = false) {
  const want = [], fresh = [], shown = s.window();
  feed.hidden = !s.count; // shown before its articles are measured
  for (const it of shown) {
    const key = `d${it.day}`;
    if (it.gap) want.push(gapNode(it));
    if (it.headed) {
      if (!nodes.has(key)) nodes.set(key, head(it.day));
      want.push(nodes.get(key));
    }
    const n = node(it);
    want.push(n);
    if (n.localName !== 'article') continue;
    if (all || !n.isConnected) fresh.push(n);
    n.ariaPosInSet = it.i + 1;
    n.ariaSetSize = s.setSize;
  }
  const inWindow = new Set(want);
  for (const [k, n] of nodes) {
    if (inWindow.has(n)) continue;
    // The focused article is leaving: the focus goes to what the reader sees, not to <body>.
    if (n.contains(document.activeElement)) nodes.get(keep?.id ?? shown[0]?.id)?.focus({ preventScroll: true });
    nodes.delete(k);
    n.remove();
  }
  let at = above.nextSibling;
  for (const n of want) if (n === at) at = at.nextSibling; else feed.insertBefore(n, at);
  if (fresh.length) {
    const margin = parseFloat(getComputedStyle(fresh[0]).marginBottom); // the px between articles
    if (want[0].className === 'day-head') s.measuredHead(want[0].getBoundingClientRect().height);
    const row = want.find(n => n.className === 'gap');
    if (row) s.measuredGap(row.getBoundingClientRect().height + margin);
    for (const n of fresh) s.measured(+n.dataset.id, n.getBoundingClientRect().height + margin);
  }
  const [top, bottom] = s.spacers();
  above.style.height = `${top}px`;
  below.style.height = `${bottom}px`;
  const n = keep && nodes.get(keep.id);
  if (n) scrollBy(0, n.getBoundingClientRect().top - keep.top);
  return fresh;
}

/** The row of the gap above window item `it`, made again when what it says changes. */
function gapNode({ id, gap }) {
  const key = `g${id} ${gap.count} ${gap.before}`;
  if (!nodes.has(key)) nodes.set(key, rows.gapRow(gap, t, end => fillGap(id, end)));
  return nodes.get(key);
}

/** Fills the gap above item `id` from its `end` ('old' or 'new'); what the reader is looking
 *  at stays where it is on screen. */
function fillGap(id, end) {
  const q = s.fill(id, end);
  q && run(api.items(q), page => {
    s.gapFilled(id, q, page);
    render(); // the window keeps its items, what came in above them moves the page down as much
    update();
  }, e => {
    s.gapFilled(id, q, null);
    api.failed(t.moreFailed, e);
  });
}

// Move the window to the viewport, render, and fetch text it lacks; on scrolling, once a frame.
// A gap to the feed's top fills as it comes into the window: the feed loads upwards too.
function update(force) {
  if (s.view(-feed.getBoundingClientRect().top, innerHeight) || force) render();
  const q = s.need();
  if (q) text(q).then(taken => taken && update(true));
  const top = s.window().find(it => it.gap?.before === null);
  if (top) fillGap(top.id, 'old');
  showNewest();
}

// "Back to newest" shows while the reader is three screens down, or the feed's top is not loaded.
function showNewest() {
  const deep = s.count && (scrollY > 3 * innerHeight || !s.atTop);
  if (deep && !newest) (rows ? Promise.resolve() : loadRows()).then(() => { newest ??= rows.newestButton(t, () => startOver(null)); showNewest(); });
  if (newest) newest.hidden = !deep;
}

/** Fetches the text the window lacks (need()'s query `q`); resolves to true when the window has
 *  it (what it covered and lacks was deleted meanwhile, and goes), or will ask for it again when
 *  it moves (a failure). */
function text(q) {
  return fetched(api.items(q), p => (s.filled(q, p), true), () => (s.filled(q, null), true));
}

/** Draws the articles of `ids` again (they were edited), where the window has them, keeping what
 *  is read where it is, and the focus on an article that had it. */
function redraw(ids, keep = scrollY > 0 && anchor()) {
  let focused;
  for (const id of ids) {
    servedArticles.delete(id); // the served markup is of the old version
    const old = nodes.get(id);
    if (old?.localName !== 'article') continue;
    focused ||= old.contains(document.activeElement) && id;
    nodes.delete(id);
    old.remove(); // render puts the new one in its place
  }
  render(keep);
  if (focused) nodes.get(focused)?.focus({ preventScroll: true });
}

/** Item `id` was deleted: it leaves the feed, and what the reader is looking at (the next
 *  article, if it was that one) stays where it is on screen. */
function remove(id) {
  servedArticles.delete(id);
  const keep = scrollY > 0 && anchor(new Set([id]));
  if (s.deleted(id)) render(keep);
  showEnd(); // the feed may be empty now
  schedule(); // a window one article shorter may need the next one
}

/** `request`'s answer to `then`, a failure (or what `then` throws) to `failed`, both only while
 *  the feed is the one it was asked of (after a start over, neither is called). An answer of
 *  another feed, or a 410 saying the feed has changed (a page asked for by an old feed's name),
 *  starts over. */
function fetched(request, then, failed) {
  const asked = s.generation, current = () => asked === s.generation;
  const gone = e => e.status === 410 && e.problem.type?.match(/(feed-changed|cursor-expired)$/)?.[1];
  return request.then(r => current() && (s.belongs(r.feed) ? then(r) : startOver()))
    .catch(e => current() && (gone(e) ? startOver(gone(e) === 'feed-changed' ? t.startedOver : t.expired) : failed(e)));
}
const schedule = (frame => () => { frame ||= requestAnimationFrame(() => { frame = 0; update(); }); })(0);
addEventListener('scroll', schedule, { passive: true });
addEventListener('resize', schedule);
const io = new IntersectionObserver(es => es.some(e => e.isIntersecting) && loadPage(), { rootMargin: '0px 0px 100% 0px' });

/** Runs `request`, the page or the refresh FeedState has just marked in flight, as `fetched`
 *  does; resolves once it is over. */
function run(request, then, failed) {
  const asked = s.generation;
  feed.ariaBusy = 'true';
  return running = fetched(request, then, failed).finally(() => {
    if (asked !== s.generation) return; // started over: the new feed's first page runs now
    feed.ariaBusy = 'false';
    io.unobserve(more); // observing again reports at once: the next page loads if the end is still near
    io.observe(more);
  });
}

// What a failed page says: the first one, or one more.
const failedText = () => s.count ? t.moreFailed : t.loadFailed;

// The row under the feed, as feed-state.js's `end` says: a screenful of skeleton rows while a
// page loads (as tall as the articles are guessed to be), the error with Try again, the empty
// feed, or "No more items". A feed without any item yet is no feed to assistive technology.
function showEnd() {
  const state = more.dataset.state = s.end, wait = $('wait');
  feed.hidden = !s.count;
  $('more-text').textContent = { loading: t.loading, end: t.noMore, error: failedText() }[state] || '';
  $('more-retry').hidden = state !== 'error';
  $('empty').hidden = state !== 'empty';
  wait.replaceChildren();
  if (state === 'loading') for (let y = 0; y < innerHeight; y += s.est) wait.append(skeleton(s.est));
}

/** The feed has its items (served, restored or fetched): the row under it says what comes next,
 *  and the stream starts after the newest item (once: later calls change nothing there). */
function ready() {
  showEnd();
  feed.ariaBusy = 'false';
  live.start(s.newest, s.changes);
}

/** Fetches the page `query` asks for (as nextPage() gives it; `request` if it is asked already). */
function loadPage(query = s.nextPage(), request = query && api.items(query)) {
  if (!query) return;
  showEnd();
  run(request, page => {
    if (!s.count) s.saw(page.changes); // the first page: what the feed reflects; later ones say nothing of it
    s.add(page.items, page.hasMore, page.next, page);
    update(true); // the articles first, then the skeletons go: what is below them stays put
    if (query.around) land(query.around);
    ready();
  }, e => {
    s.pageFailed();
    api.failed(failedText(), e);
    showEnd();
  });
}

async function refresh() {
  while (s.busy) await running; // a page being loaded finishes first
  let message = t.startedOver; // unless the feed is still the one the refresh was asked of
  error.hidden = true;
  const asked = s.generation;
  await run(api.refresh(s.beginRefresh(), s.changes), async r => {
    // More new items than one answer: a gap between them and what the reader holds, which stays
    // (when the changes since can still be had); else start over from them.
    const kept = r.gap && s.count > 0 && await keepGap(r);
    if (asked !== s.generation) return;
    if (r.gap && !kept) {
      forget();
      scrollTo(0, 0);
    }
    const changed = r.changed || [], gone = new Set(changed.filter(c => c.type === 'deleted').map(c => c.id));
    const keep = scrollY > 0 && anchor(gone); // what is being read stays put
    for (const c of changed) servedArticles.delete(c.id ?? c.item.id);
    for (const c of changed) if (c.type === 'updated') { nodes.get(c.item.id)?.remove(); nodes.delete(c.item.id); } // drawn again, edited
    const k = s.refreshed(r, kept);
    note.hidden = true; // the news that the feed started over is old news now
    showEnd(); // an empty feed is one no more
    if (keep) render(keep); // the window on the same items first: what is read stays put
    s.view(-feed.getBoundingClientRect().top, innerHeight);
    for (const a of render(keep)) if (!keep && s.index(+a.dataset.id) < k) a.classList.add('enter');
    live.shown(s.newest, s.changes);
    session.then(() => setUpdated(r.lastUpdated), () => setUpdated(r.lastUpdated));
    message = t.n(k);
  }, e => {
    s.refreshFailed();
    $('error-text').textContent = api.failed(t.refreshFailed, e);
    error.hidden = false;
    message = t.refreshFailed;
  });
  return message;
}

/** Whether what the page holds can stay after refresh answer `r` said `gap`: the edits and
 *  deletions since come in one answer of their own (then they are `r`'s). */
async function keepGap(r) {
  try {
    const [c] = await Promise.all([api.changes(s.changes), rows || loadRows()]);
    if (c.hasMore || c.feed !== r.feed) return false;
    Object.assign(r, { changed: c.changed, changes: Math.max(r.changes, c.changes) });
    return true;
  } catch { return false; } // too old (410), or failed: the newest page alone
}

/** The page around item `id` came: the item goes a little below the bar, and has the focus; a
 *  deleted one's place goes there instead. */
function land(id) {
  let i = 0;
  while (s.at(i + 1) >= id) i++;
  scrollTo(0, scrollY + above.getBoundingClientRect().top + s.offsetOf(s.at(i)) - bar.offsetHeight - s.head);
  update(true);
  const n = nodes.get(s.at(i)); // where it is drawn, measured: the offset above was a guess
  n?.focus({ preventScroll: true });
  // Its focus ring, drawn outside it, shows whole under the day header too.
  const ring = n ? parseFloat(getComputedStyle(n).outlineWidth) + parseFloat(getComputedStyle(n).outlineOffset) : 0;
  n && scrollBy(0, n.getBoundingClientRect().top - bar.getBoundingClientRect().bottom - s.head - ring);
  history.replaceState(null, '', location.pathname + location.search); // from now on, Back and reload restore
}

// Takes the window's nodes out of the page.
function forget() {
  for (const n of nodes.values()) n.remove();
  nodes.clear();
}

/** The server's feed is another one now (a reset, another data file): the ids the page holds name
 *  other items there. Everything the page holds goes, what it asked of the old feed is dropped,
 *  and it starts over from the newest page, saying so in one calm line (`message`). The stream's
 *  `reset` and any answer of another feed come here; so does an expired cursor (saying so), and
 *  "Back to newest" (saying nothing). The newest page is asked for without a feed's name, so
 *  it cannot be refused in turn: no loop, and no reload. */
function startOver(message = t.startedOver) {
  s.reset();
  forget();
  servedArticles.clear();
  scrollTo(0, 0);
  error.hidden = true;
  note.textContent = message;
  note.hidden = !message;
  live.restart();
  loadPage();
}

$('refresh').addEventListener('click', () => ptr.beginRefreshing());
$('retry').addEventListener('click', () => ptr.beginRefreshing());
$('more-retry').addEventListener('click', () => loadPage(s.retryPage()));
feed.addEventListener('animationend', e => e.target.classList.remove('enter'));
// "5 minutes ago" stays true while the page is open.
setInterval(() => { for (const time of feed.querySelectorAll('time')) tell(time, locale); }, 30e3);

// Feed pattern keys: Page Down / Page Up move between articles, across the window's edge too.
feed.addEventListener('keydown', e => {
  const a = e.target.closest('article'), step = { PageDown: 1, PageUp: -1 }[e.key];
  const id = a && step && s.at(s.index(+a.dataset.id) + step);
  if (!id) return;
  e.preventDefault();
  if (nodes.get(id)?.localName !== 'article') { // beyond the window: bring it in first
    scrollTo(0, scrollY + above.getBoundingClientRect().top + s.offsetOf(id) - innerHeight / 2);
    update();
  }
  nodes.get(id)?.focus();
});

// Leaving (a link, Back, reload): keep where the reader was, to come back to it.
addEventListener('pagehide', () => {
  const a = scrollY > 0 && anchor(); // at the top, a reload shows the newest page instead
  try {
    sessionStorage.setItem(KEY, JSON.stringify(a ? s.save({ id: a.id, offset: a.top }) : null));
  } catch { /* storage full or off: the feed then starts at the top */ }
});

// The demo's form is built when the reader first opens it: the first load does not carry it.
// Should it not load, the next toggle tries again.
document.querySelector('.compose').addEventListener('toggle', function compose(e) {
  import('/demo/compose.js').then(m => m.compose(e.target, t.lang))
    .catch(() => e.target.addEventListener('toggle', compose, { once: true }));
}, { once: true });

/** Takes over the page the server wrote: its articles become the window's nodes as they are (only
 *  their time and link are localised), its day headers are keyed and labelled by the reader's own
 *  days; the first render then measures them and adds or drops only what differs. */
function adopt(page) {
  s.belongs(page.feed);
  s.saw(page.changes);
  s.add(page.items, page.hasMore, page.next);
  for (const n of written) {
    const item = s.item(+(n.dataset.id ?? n.nextElementSibling?.dataset.id));
    const key = item && (n.localName === 'article' ? item.id : `d${s.dayOf(item)}`);
    if (!key || nodes.has(key)) { n.remove(); continue; }
    if (n.localName === 'article') localise(n, item, t); else n.textContent = label(s.dayOf(item));
    nodes.set(key, n);
  }
  s.view(-feed.getBoundingClientRect().top, innerHeight);
  render(undefined, true); // the served articles are in the page already: each is measured now
  ready();
  io.observe(more); // the next page, at once if the end is near already
}

if (served) adopt(served);
else if (target) { // the page around the item, then more both ways as the reader scrolls
  for (const n of written) n.remove();
  loadRows().then(() => loadPage(s.aroundPage(target)), () => loadPage());
} else if (saved) { // the saved geometry first, then the window's text by cursor around the saved item
  for (const n of written) n.remove(); // the newest page gives way to the saved window
  if (saved.gaps?.length) await loadRows();
  const { id, offset } = s.restore(saved), y = s.offsetOf(id) - offset;
  s.view(y, innerHeight);
  render(false);
  scrollTo(0, scrollY + above.getBoundingClientRect().top + y);
  ready();
  text(s.need()).then(taken => taken && render({ id, top: offset })).finally(() => { io.observe(more); schedule(); });
} else loadPage(s.nextPage(), early);

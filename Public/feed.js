// The feed page: a windowed list of articles (feed-state.js says which), pull to refresh, infinite
// scroll, day headers, skeleton rows, errors, the empty feed, texts, and the position kept across
// Back and reload.
import * as api from './api.js';
import { pickLang, texts, dayNumber, dayStart, dayLabel } from './i18n.js';
import { PullToRefresh } from './pull-to-refresh.js';
import { FeedState } from './feed-state.js';
import { el } from './dom.js';
import { article, localise, tell } from './article.js';
import { LiveFeed } from './live.js';

const KEY = 'pulldown-feed';
const back = /reload|back_forward/.test(performance.getEntriesByType('navigation')[0]?.type);
const saved = back && JSON.parse(sessionStorage.getItem(KEY));
// The newest page as the server wrote it into the page: its articles are in #feed already, and
// the data block is the rest of its JSON. Each served article stands for its item (its id and
// time are all the window needs) and is put back whenever its item comes back into view
// (`servedArticles`), so the items' text is sent once. Without the block (the store did not
// answer), the page asks for the first page.
const data = document.getElementById('first-page');
const servedArticles = new Map(!saved && data ? [...document.querySelectorAll('#feed article')].map(a => [+a.dataset.id, a]) : []);
const served = !saved && data && { ...JSON.parse(data.textContent),
  items: [...servedArticles].map(([id, a]) => ({ id, createdAt: a.querySelector('time').dateTime })) };
data?.remove();
let firstPage = !saved && !served && api.items();
const session = api.session();
firstPage && firstPage.catch(() => {});
session.catch(() => {});
history.scrollRestoration = 'manual'; // the position is ours to restore: the window decides the page's height

const t = await texts(pickLang(location.search, navigator.languages));
const locale = t.lang === 'zh' ? 'zh-CN' : 'en-US';
document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
const $ = id => document.getElementById(id);
for (const n of document.querySelectorAll('[data-t]')) n.textContent = t[n.dataset.t];

const feed = $('feed'), more = $('more'), error = $('error'), bar = document.querySelector('.bar');
feed.setAttribute('aria-label', t.feed);
$('curl').textContent = `curl ${location.origin}/api/items \\\n  -H 'Content-Type: application/json' \\\n  -d '{"title": "Hello"}'`;
const s = new FeedState({ dayOf: item => dayNumber(new Date(item.createdAt)) });
const nodes = new Map(); // item id, or 'd' + day for a header -> its node, for what is in the window
const above = el('div'), below = el('div'); // the spacers that stand for everything outside it
const written = [...feed.children]; // what the server wrote: the newest page's articles and day headers
feed.prepend(above);
feed.append(below);
const adopted = new Set(); // written articles not measured yet
let refreshed = false, margin = 0; // margin: the px between articles
let busy = null; // the promise of the one fetch that runs: a refresh or a page

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
      if (at === $('pill') || at === document.body) nodes.get(s.ids[0])?.focus({ preventScroll: true });
    });
  },
});

function setUpdated(iso) {
  const text = t.updated(iso ? new Date(iso) : null);
  ptr.setLastUpdated(text);
  $('updated').textContent = text;
}
session.then(r => refreshed || setUpdated(r.lastUpdated), () => refreshed || setUpdated(null));

// What the reader is looking at: the first item below the bar, and where it is on screen.
function anchor() {
  const edge = bar.getBoundingClientRect().bottom;
  for (const n of feed.children) {
    const r = n.dataset.id && n.getBoundingClientRect();
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

// An item's node: its article, or, until its text is fetched again, a skeleton as tall.
function node(i) {
  const id = s.ids[i], old = nodes.get(id), item = s.items.get(id);
  if (old && (old.localName === 'article' || !item)) return old;
  old?.remove();
  const kept = item && servedArticles.get(id);
  if (kept) localise(kept, item, locale); // its time is told afresh
  const n = item ? kept || article(item, locale) : skeleton(s.hs[i], true);
  n.dataset.id = id;
  nodes.set(id, n);
  return n;
}

/** Puts the window into the DOM: nodes that left are removed, new ones inserted, none is moved
 *  (moving a focused article would blur it). Then measures the new ones, sets the spacers and
 *  scrolls so the anchor stays where it was. Returns the new articles. */
function render(keep = scrollY > 0 && anchor()) {
  const want = [], fresh = [];
  feed.hidden = !s.ids.length; // shown before its articles are measured
  for (let i = s.first; i < s.last; i++) {
    const day = s.days[i], key = `d${day}`;
    if (s.opens(i) || i === s.first) {
      if (!nodes.has(key)) nodes.set(key, head(day));
      want.push(nodes.get(key));
    }
    const n = node(i);
    want.push(n);
    if (n.localName !== 'article') continue;
    if (!n.isConnected || adopted.delete(n)) fresh.push([i, n]);
    n.ariaPosInSet = i + 1;
    n.ariaSetSize = s.hasMore ? -1 : s.ids.length;
  }
  const inWindow = new Set(want);
  for (const [k, n] of nodes) {
    if (inWindow.has(n)) continue;
    // The focused article is leaving: the focus goes to what the reader sees, not to <body>.
    if (n.contains(document.activeElement)) nodes.get(keep?.id ?? s.ids[s.first])?.focus({ preventScroll: true });
    nodes.delete(k);
    n.remove();
  }
  let at = above.nextSibling;
  for (const n of want) if (n === at) at = at.nextSibling; else feed.insertBefore(n, at);
  if (fresh.length) {
    margin ||= parseFloat(getComputedStyle(fresh[0][1]).marginBottom);
    const h = want[0].getBoundingClientRect().height;
    if (want[0].className === 'day-head') s.measuredHead(h);
    for (const [i, n] of fresh) s.measured(i, n.getBoundingClientRect().height + margin);
  }
  const [top, bottom] = s.spacers();
  above.style.height = `${top}px`;
  below.style.height = `${bottom}px`;
  const n = keep && nodes.get(keep.id);
  if (n) scrollBy(0, n.getBoundingClientRect().top - keep.top);
  return fresh.map(([, n]) => n);
}

// Once a frame at most: move the window to the viewport, render, and fetch text it lacks.
let frame = 0;
function update(force) {
  frame = 0;
  if (s.view(-feed.getBoundingClientRect().top, innerHeight) || force) render();
  const q = s.need();
  if (q) api.items(q).then(p => s.filled(p.items), () => s.filled([])).then(() => update(true));
}
const schedule = () => { frame ||= requestAnimationFrame(() => update()); };
addEventListener('scroll', schedule, { passive: true });
addEventListener('resize', schedule);
const io = new IntersectionObserver(es => es.some(e => e.isIntersecting) && loadPage(), { rootMargin: '0px 0px 100% 0px' });

function run(work) {
  feed.ariaBusy = 'true';
  busy = work().finally(() => {
    busy = null;
    feed.ariaBusy = 'false';
    io.unobserve(more); // observing again reports at once: the next page loads if the end is still near
    io.observe(more);
  });
  return busy;
}

// What a failed page says: the first one, or one more.
const failedText = () => s.ids.length ? t.moreFailed : t.loadFailed;

// The row under the feed, as feed-state.js's `end` says: a screenful of skeleton rows while a
// page loads (as tall as the articles are guessed to be), the error with Try again, the empty
// feed, or "No more items". A feed without any item yet is no feed to assistive technology.
function showEnd() {
  const state = more.dataset.state = s.end, wait = $('wait');
  feed.hidden = !s.ids.length;
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
  live.start(s.newest);
}

function loadPage(query = s.nextPage()) {
  if (!query) return;
  const request = firstPage || api.items(query);
  firstPage = null;
  showEnd();
  run(async () => {
    try {
      const page = await request;
      s.add(page.items, page.hasMore);
      update(true); // the articles first, then the skeletons go: what is below them stays put
      ready();
    } catch (e) {
      s.pageFailed();
      api.failed(failedText(), e);
      showEnd();
    }
  });
}

async function refresh() {
  while (busy) await busy; // a page being loaded finishes first
  let message;
  await run(async () => {
    error.hidden = true;
    try {
      const r = await api.refresh(s.beginRefresh());
      if (r.gap) { // too many new items: they are the newest page, start over from them
        for (const n of nodes.values()) n.remove();
        nodes.clear();
        scrollTo(0, 0);
      }
      const keep = scrollY > 0 && anchor(), k = s.refreshed(r); // what is being read stays put
      showEnd(); // an empty feed is one no more
      s.view(-feed.getBoundingClientRect().top, innerHeight);
      for (const a of render(keep)) if (!keep && s.index(+a.dataset.id) < k) a.classList.add('enter');
      refreshed = true;
      live.shown(s.newest);
      setUpdated(r.lastUpdated);
      message = t.n(k);
    } catch (e) {
      s.refreshFailed();
      $('error-text').textContent = api.failed(t.refreshFailed, e);
      error.hidden = false;
      message = t.refreshFailed;
    }
  });
  return message;
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
  const id = a && step && s.ids[s.index(+a.dataset.id) + step];
  if (!id) return;
  e.preventDefault();
  if (nodes.get(id)?.localName !== 'article') { // beyond the window: bring it in first
    scrollTo(0, scrollY + above.getBoundingClientRect().top + s.offsetOf(s.index(id)) - innerHeight / 2);
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
let composing;
document.querySelector('.compose').addEventListener('toggle', e => {
  composing ||= import('./compose.js').then(m => m.compose(e.target, t), () => { composing = null; });
});

/** Takes over the page the server wrote: its articles become the window's nodes as they are (only
 *  their time and link are localised), its day headers are keyed and labelled by the reader's own
 *  days; the first render then measures them and adds or drops only what differs. */
function adopt(page) {
  s.add(page.items, page.hasMore);
  for (const n of written) {
    const item = s.items.get(+(n.dataset.id ?? n.nextElementSibling?.dataset.id));
    const key = item && (n.localName === 'article' ? item.id : `d${s.dayOf(item)}`);
    if (!key || nodes.has(key)) { n.remove(); continue; }
    if (n.localName === 'article') { localise(n, item, locale); adopted.add(n); } else n.textContent = label(s.dayOf(item));
    nodes.set(key, n);
  }
  update(true);
  ready();
  io.observe(more); // the next page, at once if the end is near already
}

if (served) adopt(served);
else if (saved) { // the saved geometry first, then the window's text by cursor around the saved item
  for (const n of written) n.remove(); // the newest page gives way to the saved window
  const { id, offset } = s.restore(saved), i = s.index(id);
  const y = s.offsetOf(i) - offset;
  s.view(y, innerHeight);
  render(false);
  scrollTo(0, scrollY + above.getBoundingClientRect().top + y);
  ready();
  api.items(s.need()).then(p => s.filled(p.items), () => s.filled([]))
    .then(() => render({ id, top: offset }), () => {}).finally(() => { io.observe(more); schedule(); });
} else loadPage();

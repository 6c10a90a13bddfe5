// The feed page: first page, pull to refresh, infinite scroll, day sections, errors, texts.
import * as api from './api.js';
import { pickLang, texts, dayKey, dayLabel } from './i18n.js';
import { PullToRefresh } from './pull-to-refresh.js';

let firstPage = api.items(); // as early as possible: the first article is what people wait for
const session = api.session();
firstPage.catch(() => {});
session.catch(() => {});

const t = texts(pickLang(location.search, navigator.languages));
const locale = t.lang === 'zh' ? 'zh-CN' : 'en-US';
document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
const $ = id => document.getElementById(id);
for (const n of document.querySelectorAll('[data-t]')) n.textContent = t[n.dataset.t];

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text != null) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

const feed = $('feed'), more = $('more'), error = $('error');
feed.setAttribute('aria-label', t.feed);
const shown = new Map(); // item id -> its <article>; no item is ever shown twice
const days = new Map();  // "yyyy-mm-dd" -> its day section
let hasMore = true, pageFailed = false, refreshed = false;
let busy = null; // the one fetch that runs: a refresh or a page, never both

const ptr = new PullToRefresh($('list'), {
  onRefresh: refresh,
  texts: { pull: t.pull, release: t.release, refreshing: t.refreshing, failed: t.refreshFailed },
});

function setUpdated(iso) {
  const text = t.updated(iso ? new Date(iso) : null);
  ptr.setLastUpdated(text);
  $('updated').textContent = text;
}
session.then(s => refreshed || setUpdated(s.lastUpdated), () => refreshed || setUpdated(null));

function article(item) {
  const a = el('article'), id = `item-${item.id}`, d = new Date(item.createdAt);
  a.tabIndex = 0;
  a.dataset.id = item.id;
  a.setAttribute('aria-labelledby', `${id}-t`);
  a.setAttribute('aria-describedby', `${id}-b`);
  const h = el('h2', item.title), p = el('p', item.body), f = el('footer', `${item.author} · `), time = el('time',
    d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }));
  h.id = `${id}-t`;
  p.id = `${id}-b`;
  time.dateTime = item.createdAt;
  time.title = d.toLocaleString(locale);
  f.append(time);
  a.append(h, p, f);
  return a;
}

// Puts an item into its day section, sections and items newest first. Returns the new article.
function place(item) {
  if (shown.has(item.id)) return null;
  const d = new Date(item.createdAt), key = dayKey(d);
  let day = days.get(key);
  if (!day) {
    day = el('div', null, 'day');
    day.dataset.day = key;
    const head = el('div', dayLabel(d, new Date(), t), 'day-head');
    head.setAttribute('aria-hidden', 'true');
    day.append(head);
    days.set(key, day);
    feed.insertBefore(day, [...feed.children].find(s => s.dataset.day < key) || null);
  }
  const a = article(item);
  day.insertBefore(a, [...day.querySelectorAll('article')].find(o => +o.dataset.id < item.id) || null);
  shown.set(item.id, a);
  return a;
}

function numberArticles() {
  feed.querySelectorAll('article').forEach((a, i) => {
    a.setAttribute('aria-posinset', i + 1);
    a.setAttribute('aria-setsize', hasMore ? -1 : shown.size);
  });
}

const ids = () => [...shown.keys()];
const io = new IntersectionObserver(es => es.some(e => e.isIntersecting) && loadPage(), { rootMargin: '0px 0px 100% 0px' });

function run(work) {
  feed.setAttribute('aria-busy', 'true');
  busy = work().finally(() => {
    busy = null;
    feed.setAttribute('aria-busy', 'false');
    numberArticles();
    io.unobserve(more); // observing again reports at once: the next page loads if the end is still near
    io.observe(more);
  });
  return busy;
}

function setMore(state, detail) {
  more.dataset.state = state;
  $('more-text').textContent = { loading: t.loading, end: t.noMore, error: `${t.loadFailed} ${detail || ''}` }[state] || '';
  $('more-retry').hidden = state !== 'error';
}

function loadPage() {
  if (busy || !hasMore || pageFailed) return;
  const request = firstPage || api.items(shown.size ? { before: Math.min(...ids()) } : {});
  firstPage = null;
  setMore('loading');
  run(async () => {
    try {
      const page = await request;
      page.items.forEach(place);
      hasMore = page.hasMore;
      setMore(hasMore ? '' : 'end');
    } catch (e) {
      pageFailed = true;
      setMore('error', e.message);
    }
  });
}

async function refresh() {
  while (busy) await busy; // a page being loaded finishes first
  let message;
  await run(async () => {
    error.hidden = true;
    try {
      const r = await api.refresh(shown.size ? Math.max(...ids()) : 0);
      if (r.gap) { // too many new items: they are the newest page, start over from them
        feed.replaceChildren();
        shown.clear();
        days.clear();
        hasMore = true;
        pageFailed = false;
      }
      const anchor = scrollY > 0 && [...feed.querySelectorAll('article')].find(a => a.getBoundingClientRect().bottom > 0);
      const top = anchor && anchor.getBoundingClientRect().top;
      const added = r.items.map(place).filter(Boolean);
      if (anchor) scrollBy(0, anchor.getBoundingClientRect().top - top); // what was being read stays put
      else for (const a of added) a.classList.add('enter');
      refreshed = true;
      setUpdated(r.lastUpdated);
      message = t.n(added.length);
    } catch (e) {
      $('error-text').textContent = t.refreshFailed;
      error.title = e.message;
      error.hidden = false;
      message = t.refreshFailed;
    }
  });
  return message;
}

$('refresh').addEventListener('click', () => ptr.beginRefreshing());
$('retry').addEventListener('click', () => ptr.beginRefreshing());
$('more-retry').addEventListener('click', () => { pageFailed = false; loadPage(); });
feed.addEventListener('animationend', e => e.target.classList.remove('enter'));

// Feed pattern keys: Page Down / Page Up move between articles.
feed.addEventListener('keydown', e => {
  const a = e.target.closest('article'), step = { PageDown: 1, PageUp: -1 }[e.key];
  if (!a || !step) return;
  const all = [...feed.querySelectorAll('article')], next = all[all.indexOf(a) + step];
  if (next) { e.preventDefault(); next.focus(); }
});

$('compose').addEventListener('submit', async e => {
  e.preventDefault();
  const form = e.target, out = $('compose-status');
  const item = Object.fromEntries([...new FormData(form)].filter(([, v]) => v.trim()));
  try {
    await api.post(item);
    form.reset();
    out.textContent = t.posted;
  } catch (err) {
    out.textContent = `${t.postFailed} ${err.message}`;
  }
});

loadPage();

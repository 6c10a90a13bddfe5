// Texts in English, and in Simplified Chinese from i18n-zh.js (fetched only by its readers), and
// the pure date helpers the page uses.

/** The English texts: every language has these keys. */
export const EN = {
  pull: 'Pull down to refresh…', release: 'Release to refresh…', refreshing: 'Updating…',
  updated: 'Last updated on {t}', never: 'Not updated yet', refresh: 'Refresh',
  n0: 'No new items', n1: '1 new item', nn: '{n} new items', more: '{n}+ new items',
  loading: 'Loading…', noMore: 'No more items', retry: 'Try again',
  refreshFailed: "Couldn't refresh.", loadFailed: "Couldn't load items.",
  moreFailed: "Couldn't load more items.", empty: 'No items yet',
  emptyHow: 'Post the first one with “Post an item” above, or from a terminal:',
  today: 'Today', yesterday: 'Yesterday', feed: 'Latest items',
  compose: 'Post an item', back: 'Back to the feed', notFound: 'No such item.', demo: 'Demo',
  startedOver: 'The feed has started over.',
  edited: 'edited', deleted: 'This item was deleted.',
  gapN: 'Load {n} newer items', gap1: 'Load 1 newer item', gapSome: 'Load newer items', gapTop: 'From the top',
  toNewest: 'Back to newest', expired: 'Your place in the feed expired: here are the newest items.',
  inFeed: 'Show in feed',
};

// Each language the page speaks, and the locale its dates, times and numbers are written in.
const LOCALES = { en: 'en-US', zh: 'zh-CN' };

/** `?lang=` wins (en, zh, or a tag such as zh-CN), then the first of the browser's languages
 *  we have, then English. */
export function pickLang(search = '', languages = []) {
  for (const l of [new URLSearchParams(search).get('lang'), ...languages]) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LOCALES[base]) return base;
  }
  return 'en';
}

/** `text` with each {key} replaced by `values[key]` (the page's own texts have one each). */
export const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k]);

/** The English texts `en` in `lang`: for Chinese, the default export of the module `zh()`
 *  imports laid over them (any text it lacks stays English). Only a Chinese reader fetches it:
 *  every set of texts (the page's here, the Demo panel's) is an English object in its module and
 *  a Chinese one in a module of its own. */
export const inLang = async (lang, en, zh) => ({ ...en, ...(lang === 'zh' && (await zh()).default) });

/** Resolves to the texts of `lang` (English for one we do not have), with `lang`, its `locale`,
 *  `n(count, more)` for "3 new items" ("10+ new items" when `more`) and `updated(date|null)`. */
export async function texts(lang) {
  lang = LOCALES[lang] ? lang : 'en';
  const t = { ...await inLang(lang, EN, () => import('./i18n-zh.js')), lang, locale: LOCALES[lang] }, at = t.updated;
  t.n = (n, more) => more ? t.more.replace('{n}', n) : n === 0 ? t.n0 : n === 1 ? t.n1 : t.nn.replace('{n}', n);
  t.updated = d => d ? at.replace('{t}', stamp(d)) : t.never;
  return t;
}

/** The page in the reader's language (`?lang=`, else the browser's): its texts, with <html lang>
 *  and every `[data-t]` element's text set from them. */
export async function pageTexts() {
  const t = await texts(pickLang(location.search, navigator.languages));
  document.documentElement.lang = t.locale;
  for (const n of document.querySelectorAll('[data-t]')) n.textContent = t[n.dataset.t];
  return t;
}

const pad = n => String(n).padStart(2, '0');

/** "MM/dd/yyyy hh:mm AM" in local time, the seed's format. */
export function stamp(d) {
  const h = d.getHours() % 12 || 12;
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()} ${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** When `d` was, seen at `now`, in `locale`'s words: "now", "5 minutes ago", "3 hours ago"
 *  ("5分钟前") within a day, after that as `clock` says: its clock time ("07:41 AM") under a day
 *  header that says which day, the date too where there is none (DATED). A time ahead of the
 *  reader's clock is "now". */
export function when(d, now, locale, clock = { hour: '2-digit', minute: '2-digit' }) {
  const m = Math.floor((now - d) / 6e4), ago = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  return m >= 1440 ? d.toLocaleString(locale, clock)
    : m < 1 ? ago.format(0, 'second') : m < 60 ? ago.format(-m, 'minute') : ago.format(-Math.floor(m / 60), 'hour');
}

/** `when`'s clock for a time without a day header above it: "May 1, 2025, 09:00 AM". */
export const DATED = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };

/** A local calendar day as a number (days since 1970-01-01), to group items by. */
export const dayNumber = d => Math.floor((d - d.getTimezoneOffset() * 6e4) / 864e5);

/** The local midnight that starts day number `n`. */
export const dayStart = n => new Date(1970, 0, 1 + n);

/** "Today", "Yesterday", else the date, for the section header of day `d` seen at `now`. */
export function dayLabel(d, now, t) {
  const ago = dayNumber(now) - dayNumber(d);
  if (ago === 0) return t.today;
  if (ago === 1) return t.yesterday;
  return d.toLocaleDateString(t.locale, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

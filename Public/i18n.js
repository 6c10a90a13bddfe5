// Texts in English and Simplified Chinese, and the pure date helpers the page uses.

const TEXTS = {
  en: {
    pull: 'Pull down to refresh…', release: 'Release to refresh…', refreshing: 'Updating…',
    updated: 'Last updated on {t}', never: 'Not updated yet', refresh: 'Refresh',
    n0: 'No new items', n1: '1 new item', nn: '{n} new items', more: '{n}+ new items',
    loading: 'Loading…', noMore: 'No more items', retry: 'Try again',
    refreshFailed: "Couldn't refresh. Try again.", loadFailed: "Couldn't load items.",
    today: 'Today', yesterday: 'Yesterday', feed: 'Latest items',
    compose: 'Post an item', title: 'Title', body: 'Text', author: 'Author', post: 'Post',
    posted: 'Posted. Pull down to see it.', postFailed: "Couldn't post.",
    back: 'Back to the feed', notFound: 'No such item.',
  },
  zh: {
    pull: '下拉可以刷新', release: '松开立即刷新', refreshing: '加载中…',
    updated: '最后更新：{t}', never: '尚未更新', refresh: '刷新',
    n0: '没有新内容', n1: '1 条新内容', nn: '{n} 条新内容', more: '{n}+ 条新内容',
    loading: '加载中…', noMore: '没有更多了', retry: '重试',
    refreshFailed: '刷新失败，请重试。', loadFailed: '加载失败。',
    today: '今天', yesterday: '昨天', feed: '最新内容',
    compose: '发布一条', title: '标题', body: '内容', author: '作者', post: '发布',
    posted: '已发布，下拉即可看到。', postFailed: '发布失败。',
    back: '返回列表', notFound: '没有这条内容。',
  },
};

/** `?lang=en|zh` wins, then the first of the browser's languages we have, then English. */
export function pickLang(search = '', languages = []) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked && TEXTS[asked]) return asked;
  for (const l of languages) {
    const base = String(l).toLowerCase().split('-')[0];
    if (TEXTS[base]) return base;
  }
  return 'en';
}

/** The texts of `lang`, with `n(count, more)` for "3 new items" ("10+ new items" when `more`)
 *  and `updated(date|null)`. */
export function texts(lang) {
  const base = TEXTS[lang] || TEXTS.en;
  const t = { ...base, lang: TEXTS[lang] ? lang : 'en' };
  t.n = (n, more) => more ? t.more.replace('{n}', n) : n === 0 ? t.n0 : n === 1 ? t.n1 : t.nn.replace('{n}', n);
  t.updated = d => d ? base.updated.replace('{t}', stamp(d)) : base.never;
  return t;
}

const pad = n => String(n).padStart(2, '0');

/** "MM/dd/yyyy hh:mm AM" in local time, the seed's format. */
export function stamp(d) {
  const h = d.getHours() % 12 || 12;
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()} ${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** A local calendar day as a number (days since 1970-01-01), to group items by. */
export const dayNumber = d => Math.floor((d - d.getTimezoneOffset() * 6e4) / 864e5);

/** The local midnight that starts day number `n`. */
export const dayStart = n => new Date(1970, 0, 1 + n);

/** "Today", "Yesterday", else the date, for the section header of day `d` seen at `now`. */
export function dayLabel(d, now, t) {
  const ago = dayNumber(now) - dayNumber(d);
  if (ago === 0) return t.today;
  if (ago === 1) return t.yesterday;
  return d.toLocaleDateString(t.lang === 'zh' ? 'zh-CN' : 'en-US',
    { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

// One item as an article, for the feed and the item page. Text goes in with textContent only.
import { el } from './dom.js';
import { when } from './i18n.js';

/** A picture in a box the size `w` x `h` reserves (app.css draws it from these attributes), only
 *  for an http(s) URL or a path on this server. `loading` is set before `src`: an image given its
 *  source first is fetched at once, wherever it is. */
const picture = (cls, src, w, h, alt) => /^(https?:\/\/|\/(?!\/))/i.test(src) &&
  Object.assign(el('img', null, cls), { loading: 'lazy', decoding: 'async', width: w, height: h, alt: alt || '', src });

/** The article of `item` in the page's texts `t`; its time links to the item's own page, and an
 *  edited one says so after it. The server writes the same markup for the newest page
 *  (PulldownApp's FeedMarkup), which the feed adopts as it is. */
export function article(item, t) {
  const a = el('article'), id = `item-${item.id}`, img = item.image;
  a.tabIndex = 0;
  a.dataset.id = item.id;
  a.setAttribute('aria-labelledby', `${id}-t`);
  a.setAttribute('aria-describedby', `${id}-b`);
  const h = el('h2', item.title), p = el('p', item.body), f = el('footer', `${item.author} · `),
    link = el('a'), time = el('time');
  h.id = `${id}-t`;
  p.id = `${id}-b`;
  link.draggable = false; // a mouse pull that starts on it stays a pull
  time.dateTime = item.createdAt;
  link.append(time);
  f.append(link);
  if (item.editedAt) {
    const mark = el('span', null, 'edited');
    mark.dataset.at = item.editedAt;
    f.append(' · ', mark);
  }
  // The avatar only repeats the author's name: it is decorative (alt="").
  a.append(...[picture('avatar', item.avatar, 40, 40), h, p, img && picture('pic', img.url, img.width, img.height, img.alt), f].filter(Boolean));
  localise(a, item, t);
  return a;
}

/** What only the browser knows, set in place: the local time, the page's query (knobs, lang)
 *  on the link, and the edit mark in the reader's words with its local time. The server writes
 *  UTC, a plain link and an English mark; nothing else of its article changes. */
export function localise(a, item, t) {
  const time = a.querySelector('time'), edited = a.querySelector('.edited');
  time.title = new Date(item.createdAt).toLocaleString(t.locale);
  tell(time, t.locale);
  time.parentElement.href = `/item.html?id=${item.id}${location.search.replace('?', '&')}`;
  if (edited) Object.assign(edited, { textContent: t.edited, title: new Date(item.editedAt).toLocaleString(t.locale) });
}

/** Sets a `<time>`'s text to how long ago its `datetime` was ("5 minutes ago"), as of `now`; a
 *  time over a day old as `clock` says (i18n.js's `when`). */
export const tell = (time, locale, now = new Date(), clock) => { time.textContent = when(new Date(time.dateTime), now, locale, clock); };

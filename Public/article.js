// One item as an article, for the feed and the item page. Text goes in with textContent only.

export const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text != null) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

/** The article of `item`; its time links to the item's own page. */
export function article(item, locale) {
  const a = el('article'), id = `item-${item.id}`, d = new Date(item.createdAt);
  a.tabIndex = 0;
  a.dataset.id = item.id;
  a.setAttribute('aria-labelledby', `${id}-t`);
  a.setAttribute('aria-describedby', `${id}-b`);
  const h = el('h2', item.title), p = el('p', item.body), f = el('footer', `${item.author} · `),
    link = el('a'), time = el('time', d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }));
  h.id = `${id}-t`;
  p.id = `${id}-b`;
  link.href = `/item.html?id=${item.id}${location.search.replace('?', '&')}`;
  link.draggable = false; // a mouse pull that starts on it stays a pull
  time.dateTime = item.createdAt;
  time.title = d.toLocaleString(locale);
  link.append(time);
  f.append(link);
  a.append(h, p, f);
  return a;
}

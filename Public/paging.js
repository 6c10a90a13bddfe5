// The feed's rows for paging beyond the plain scroll, loaded only by a page that needs them (one
// opened on an item, one that met a gap, a reader gone deep): the row that stands for a gap, with
// a button to fill it from either end, and "Back to newest".
import { el } from './dom.js';

/** The row for `gap` ({ count, before }: feed-state.js's), its buttons calling `fill(end)`:
 *  'old' fills it upwards from the items under it, 'new' downwards from the items above it (only
 *  where there are such items: a gap to the feed's top is filled from under it, as it comes into
 *  view). */
export function gapRow(gap, t, fill) {
  const n = gap.count, main = el('button', n == null ? t.gapSome : n === 1 ? t.gap1 : t.gapN.replace('{n}', n));
  const row = el('div', null, 'gap');
  Object.assign(row, { role: 'article', ariaLabel: main.textContent }); // a feed holds articles only
  main.addEventListener('click', () => fill('old'));
  row.append(main);
  if (gap.before != null) {
    const top = el('button', t.gapTop, 'quiet');
    top.addEventListener('click', () => fill('new'));
    row.append(top);
  }
  return row;
}

/** "Back to newest", at the foot of the screen: `go` on a click. */
export function newestButton(t, go) {
  const b = el('button', t.toNewest, 'to-newest');
  b.type = 'button';
  b.hidden = true;
  b.addEventListener('click', go);
  document.body.append(b);
  return b;
}

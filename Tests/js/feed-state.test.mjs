import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedState } from '../../Public/feed-state.js';

// Items `from` down to `to`, ten a day, like the API's pages (newest first).
const items = (from, to) => {
  const out = [];
  for (let id = from; id >= to; id--) out.push({ id, day: Math.floor(id / 10) });
  return out;
};
const feed = o => new FeedState({ dayOf: it => it.day, est: 100, head: 30, margin: 1, keep: 60, ...o });
// A feed of `n` items loaded page by page, as the page does.
const loaded = (n, o) => {
  const s = feed(o);
  while (s.ids.length < n) {
    const q = s.nextPage(), top = q.before ? q.before - 1 : n;
    s.add(items(top, Math.max(1, top - 9)), top - 9 > 1);
  }
  return s;
};
const window = s => s.ids.slice(s.first, s.last);

test('pages go on the end by cursor, one at a time, never twice', () => {
  const s = feed();
  assert.deepEqual(s.nextPage(), {});
  assert.equal(s.nextPage(), null, 'one page at a time');
  s.add(items(30, 21), true);
  assert.deepEqual(s.nextPage(), { before: 21 });
  s.add(items(25, 11), true); // overlaps what is loaded: only 20..11 are new
  assert.deepEqual(s.ids, items(30, 11).map(it => it.id));
  assert.equal(s.beginRefresh(), 30);
  assert.equal(s.nextPage(), null, 'no page while a refresh runs');
});

test('no more pages after the last, nor after a failure until it is retried', () => {
  const s = feed();
  s.nextPage();
  s.add(items(5, 1), false);
  assert.equal(s.nextPage(), null);
  const f = feed();
  f.nextPage();
  f.pageFailed();
  assert.equal(f.nextPage(), null, 'a failed page is not asked again by itself');
  assert.deepEqual(f.retryPage(), {}, 'only when the reader asks');
  assert.equal(f.end, 'loading');
  assert.equal(f.retryPage(), null, 'one page in flight at a time');
});

test('heights: estimated, then measured; a day header counts once per day', () => {
  const s = feed();
  s.nextPage();
  s.add(items(19, 10), true); // days 1 (19..10): one header
  assert.equal(s.total, 10 * 100 + 30);
  s.measured(0, 140);
  assert.equal(s.total, 9 * 100 + 140 + 30);
  assert.ok(s.est > 100, 'unseen items are guessed from the measured ones');
  s.measuredHead(40);
  assert.equal(s.total, 9 * 100 + 140 + 40);
  assert.equal(s.offsetOf(1), 40 + 140);
});

test('the window covers the viewport and a margin, and follows it with work proportional to the move', () => {
  const s = loaded(1000);
  assert.equal(s.view(0, 500), true);
  assert.equal(s.first, 0);
  assert.ok(s.last >= 10 && s.last <= 12, `${s.last}`); // 1000 px = 10 items and headers
  assert.equal(s.view(100, 500), false, 'a small scroll changes nothing');
  assert.equal(s.view(50_000, 500), true);
  const [top] = s.spacers();
  assert.ok(top <= 50_000 - 500 && top >= 50_000 - 500 - 130, `${top}`);
  assert.ok(s.last - s.first <= 16);
  const [above, below] = s.spacers();
  let inside = 0;
  for (let i = s.first; i < s.last; i++) inside += s.size(i);
  assert.equal(above + (s.opens(s.first) ? 0 : s.head) + inside + below, s.total, 'spacers and window add up');
});

test('a window that starts inside a day repeats its header, taken from the spacer above', () => {
  const s = loaded(100);
  s.view(2_000, 300);
  assert.equal(s.opens(s.first), false);
  assert.equal(s.spacers()[0], s.top - s.head);
});

test('text far from the window is dropped and asked for again by cursor, both ways', () => {
  const s = loaded(500);
  s.view(40_000, 500);
  assert.ok(s.items.size <= 60 + 30, `${s.items.size} items kept`);
  assert.equal(s.items.has(500), false);
  s.view(0, 500);
  const up = s.need();
  assert.deepEqual(up, { after: s.ids[s.last - 1] - 1, limit: 50 }, 'missing at the top: fetched upwards');
  assert.equal(s.need(), null, 'one at a time');
  s.filled(items(500, 451));
  assert.equal(s.need(), null);
  assert.deepEqual(window(s).filter(id => !s.items.has(id)), []);
  s.view(s.offsetOf(45), 500); // the window's top has text, its bottom not
  assert.deepEqual(s.need(), { before: 451, limit: 50 }, 'missing further down: fetched downwards');
});

test('a refresh goes on top and the window stays on the same items', () => {
  const s = loaded(50);
  s.view(2_000, 500);
  const shown = window(s), top = s.top;
  assert.equal(s.beginRefresh(), 50);
  assert.equal(s.refreshed({ items: items(53, 51), gap: false }), 3);
  assert.deepEqual(window(s), shown);
  assert.equal(s.top, top + 300);
  assert.equal(s.ids[0], 53);
  assert.equal(s.refreshed({ items: items(53, 52), gap: false }), 0, 'nothing twice');
});

test('a gap starts over from the newest page', () => {
  const s = loaded(50);
  s.view(3_000, 500);
  s.beginRefresh();
  assert.equal(s.refreshed({ items: items(90, 81), gap: true }), 10);
  assert.deepEqual(s.ids, items(90, 81).map(it => it.id));
  assert.equal(s.hasMore, true);
  assert.equal(s.busy, null);
  s.view(0, 500);
  assert.equal(s.first, 0);
  assert.deepEqual(s.nextPage(), { before: 81 });
});

test('saved and restored: the same ids, days and heights, compactly, and the anchor', () => {
  const s = loaded(20_000);
  s.measured(7, 123.5);
  const saved = JSON.parse(JSON.stringify(s.save({ id: 19_000, offset: 80 })));
  assert.equal(saved.ids.length, 1, 'consecutive ids are one run');
  const r = feed();
  assert.deepEqual(r.restore(saved), { id: 19_000, offset: 80 });
  assert.deepEqual(r.ids, s.ids);
  assert.deepEqual(r.days, s.days);
  assert.equal(r.total, s.total);
  assert.equal(r.index(19_000), 1000);
  assert.equal(r.items.size, 0, 'no text is kept');
  r.view(r.offsetOf(1000) - 80, 800);
  assert.ok(r.first <= 1000 && r.last > 1000);
});

test('index finds an id by binary search, -1 when not loaded', () => {
  const s = loaded(100);
  assert.equal(s.index(100), 0);
  assert.equal(s.index(1), 99);
  assert.equal(s.index(0), -1);
  assert.equal(s.index(101), -1);
});

test('at either end of the feed its spacer is exactly 0, never negative, however the px were summed', () => {
  // Measured heights are fractions of a px: their running sums drift by rounding, and a spacer of
  // -1e-13 px is no height at all to CSS (the old one would stay on screen).
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const s = loaded(200);
  for (let y = 0; y <= s.total; y += 700) {
    s.view(y, 844);
    for (let i = s.first; i < s.last; i++) s.measured(i, 90 + next() * 80);
    const [above, below] = s.spacers();
    assert.ok(above >= 0 && below >= 0, `spacers ${above}, ${below} at ${y}`);
    if (s.first === 0) assert.equal(above, 0);
    if (s.last === s.ids.length) assert.equal(below, 0, `the end at ${y}`);
  }
  assert.equal(s.last, s.ids.length, 'the walk reached the end');
  for (let y = s.total; y >= 0; y -= 700) s.view(y, 844);
  s.view(0, 844);
  assert.equal(s.first, 0);
  assert.equal(s.spacers()[0], 0, 'back at the top');
});

test('the row under the feed: skeletons while a page loads, the error, the empty feed, the end', () => {
  const s = feed();
  assert.equal(s.end, '', 'nothing asked for yet');
  s.nextPage();
  assert.equal(s.end, 'loading');
  s.pageFailed();
  assert.equal(s.end, 'error');
  s.retryPage();
  s.add([], false);
  assert.equal(s.end, 'empty', 'a feed without any item is empty, not at its end');
  s.beginRefresh();
  assert.equal(s.end, 'empty', 'a refresh is not a page: the empty state stays while it runs');
  s.refreshed({ items: items(2, 1), gap: false });
  assert.equal(s.end, 'end', 'the first items make it a feed at its end');
  const t = feed();
  t.nextPage();
  t.add(items(30, 21), true);
  assert.equal(t.end, '', 'more to come');
  t.nextPage();
  t.add(items(20, 11), false);
  assert.equal(t.end, 'end');
});

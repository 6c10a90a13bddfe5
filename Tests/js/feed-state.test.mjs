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
  while (s.count < n) {
    const q = s.nextPage(), top = q.before ? q.before - 1 : n;
    s.add(items(top, Math.max(1, top - 9)), top - 9 > 1);
  }
  return s;
};
const ids = s => Array.from({ length: s.count }, (_, i) => s.at(i));
const window = s => s.window().map(it => it.id);
// px of the window's items, each with the day header above it where one is drawn.
const inside = s => s.window().reduce((px, it) => px + it.h + (it.headed ? s.head : 0), 0);

test('pages go on the end by cursor, one at a time, never twice', () => {
  const s = feed();
  assert.deepEqual(s.nextPage(), {});
  assert.equal(s.nextPage(), null, 'one page at a time');
  s.add(items(30, 21), true);
  assert.deepEqual(s.nextPage(), { before: 21 });
  s.add(items(25, 11), true); // overlaps what is loaded: only 20..11 are new
  assert.deepEqual(ids(s), items(30, 11).map(it => it.id));
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
  assert.equal(s.height, 10 * 100 + 30);
  s.measured(19, 140);
  assert.equal(s.height, 9 * 100 + 140 + 30);
  assert.ok(s.est > 100, 'unseen items are guessed from the measured ones');
  s.measuredHead(40);
  assert.equal(s.height, 9 * 100 + 140 + 40);
  assert.equal(s.offsetOf(18), 40 + 140);
});

test('the window covers the viewport and a margin, and follows it with work proportional to the move', () => {
  const s = loaded(1000);
  assert.equal(s.view(0, 500), true);
  assert.equal(window(s)[0], 1000);
  assert.ok(window(s).length >= 10 && window(s).length <= 12, `${window(s)}`); // 1000 px = 10 items and headers
  assert.equal(s.view(100, 500), false, 'a small scroll changes nothing');
  assert.equal(s.view(50_000, 500), true);
  const [top] = s.spacers();
  assert.ok(top <= 50_000 - 500 && top >= 50_000 - 500 - 130, `${top}`);
  assert.ok(window(s).length <= 16);
  const [above, below] = s.spacers();
  assert.equal(above + inside(s) + below, s.height, 'spacers and window add up');
});

test('a window that starts inside a day repeats its header, taken from the spacer above', () => {
  const s = loaded(100);
  s.view(2_000, 300);
  const [first] = s.window();
  assert.equal(first.day, s.window()[1].day, 'the window starts inside a day');
  assert.equal(first.headed, true);
  assert.equal(s.spacers()[0], s.offsetOf(first.id) - s.head);
});

test('text far from the window is dropped and asked for again by cursor, both ways', () => {
  const s = loaded(500);
  s.view(40_000, 500);
  assert.ok(s.kept <= 60 + 30, `${s.kept} items kept`);
  assert.equal(s.item(500), undefined);
  s.view(0, 500);
  const up = s.need();
  assert.deepEqual(up, { after: window(s).at(-1) - 1, limit: 50 }, 'missing at the top: fetched upwards');
  assert.equal(s.need(), null, 'one at a time');
  s.filled(up, { items: items(500, 451), hasMore: true, next: 451 });
  assert.equal(s.need(), null);
  assert.deepEqual(window(s).filter(id => !s.item(id)), []);
  s.view(s.offsetOf(455), 500); // the window's top has text, its bottom not
  assert.deepEqual(s.need(), { before: 451, limit: 50 }, 'missing further down: fetched downwards');
});

test('a refresh goes on top and the window stays on the same items', () => {
  const s = loaded(50);
  s.view(2_000, 500);
  const shown = window(s), [top] = s.spacers();
  assert.equal(s.beginRefresh(), 50);
  assert.equal(s.refreshed({ items: items(53, 51), gap: false }), 3);
  assert.deepEqual(window(s), shown);
  assert.equal(s.spacers()[0], top + 300);
  assert.equal(s.newest, 53);
  assert.equal(s.refreshed({ items: items(53, 52), gap: false }), 0, 'nothing twice');
});

test('a gap starts over from the newest page', () => {
  const s = loaded(50);
  s.view(3_000, 500);
  s.beginRefresh();
  assert.equal(s.refreshed({ items: items(90, 81), gap: true }), 10);
  assert.deepEqual(ids(s), items(90, 81).map(it => it.id));
  assert.equal(s.setSize, -1, 'more to come');
  assert.equal(s.busy, null);
  s.view(0, 500);
  assert.equal(window(s)[0], 90);
  assert.deepEqual(s.nextPage(), { before: 81 });
});

test('saved and restored: the same ids, days and heights, compactly, and the anchor', () => {
  const s = loaded(20_000);
  s.measured(19_993, 123.5);
  const saved = JSON.parse(JSON.stringify(s.save({ id: 19_000, offset: 80 })));
  assert.equal(saved.ids.length, 1, 'consecutive ids are one run');
  const r = feed();
  assert.deepEqual(r.restore(saved), { id: 19_000, offset: 80 });
  assert.deepEqual(ids(r), ids(s));
  assert.deepEqual(r.save(null), s.save(null), 'the same ids, days and heights');
  assert.equal(r.height, s.height);
  assert.equal(r.index(19_000), 1000);
  assert.equal(r.kept, 0, 'no text is kept');
  r.view(r.offsetOf(19_000) - 80, 800);
  assert.ok(window(r).includes(19_000));
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
  for (let y = 0; y <= s.height; y += 700) {
    s.view(y, 844);
    for (const it of s.window()) s.measured(it.id, 90 + next() * 80);
    const [above, below] = s.spacers();
    assert.ok(above >= 0 && below >= 0, `spacers ${above}, ${below} at ${y}`);
    if (s.window()[0].i === 0) assert.equal(above, 0);
    if (s.window().at(-1).i === s.count - 1) assert.equal(below, 0, `the end at ${y}`);
  }
  assert.equal(s.window().at(-1).i, s.count - 1, 'the walk reached the end');
  for (let y = s.height; y >= 0; y -= 700) s.view(y, 844);
  s.view(0, 844);
  assert.equal(s.window()[0].i, 0);
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

test('without a feed name from the server, the queries are as they always were', () => {
  const s = feed();
  assert.deepEqual(s.nextPage(), {});
  assert.equal(s.belongs(undefined), true);
  s.add(items(30, 21), true);
  assert.deepEqual(s.nextPage(), { before: 21 });
  assert.equal(s.belongs('a-feed'), true, 'the first name given is the feed\'s');
});

test('once the server names the feed, every page and every text asked for names it', () => {
  const s = feed();
  s.nextPage();
  assert.equal(s.belongs('f1'), true);
  s.add(items(500, 451), true);
  assert.deepEqual(s.nextPage(), { before: 451, feed: 'f1' });
  s.add(items(450, 1), false);
  s.view(40_000, 500);
  s.view(0, 500);
  assert.deepEqual(s.need(), { after: window(s).at(-1) - 1, limit: 50, feed: 'f1' });
  assert.equal(s.belongs('f1'), true);
  assert.equal(s.belongs(undefined), true, 'an answer that does not say is not another feed');
  assert.equal(s.belongs('f2'), false, 'another feed: the page starts over');
});

test('starting over forgets the feed, its name too, and makes what was asked before stale', () => {
  const s = loaded(50);
  s.belongs('old');
  const asked = s.generation;
  s.reset();
  assert.notEqual(s.generation, asked);
  assert.equal(s.count, 0);
  assert.deepEqual(s.nextPage(), {}, 'the newest page, asked for without a name');
  assert.equal(s.belongs('new'), true);
  s.add(items(5, 1), false);
  assert.equal(s.end, 'end');
});

test('a gap is the same feed: its name stays, and nothing asked before is stale', () => {
  const s = loaded(50);
  s.belongs('f1');
  const asked = s.generation;
  s.beginRefresh();
  s.refreshed({ items: items(90, 81), gap: true });
  assert.equal(s.generation, asked);
  assert.deepEqual(s.nextPage(), { before: 81, feed: 'f1' });
});

test('the feed\'s name is kept across Back and reload, so a page of a feed since replaced is refused', () => {
  const s = loaded(100);
  s.belongs('f1');
  const r = feed();
  r.restore(JSON.parse(JSON.stringify(s.save({ id: 50, offset: 0 }))));
  r.view(r.offsetOf(50), 500);
  assert.equal(r.need().feed, 'f1');
  assert.equal(r.belongs('f2'), false);
});

test('a page whose items were all deleted says where to go on, and the next page goes from there', () => {
  const s = feed();
  s.nextPage();
  s.add(items(30, 21), true, 21);
  assert.deepEqual(s.nextPage(), { before: 21 });
  s.add([], true, 11); // places 20..11: every item on them deleted
  assert.deepEqual(s.nextPage(), { before: 11 }, 'not 21 again');
  s.add(items(10, 1), false, null);
  assert.deepEqual(ids(s), [...items(30, 21), ...items(10, 1)].map(it => it.id));
  assert.equal(s.nextPage(), null);
});

test('an edit replaces the text kept, a deletion takes the item out and every px after it up', () => {
  const s = loaded(60);
  s.view(0, 1000);
  const height = s.height, shown = window(s);
  assert.equal(s.updated({ id: 58, day: 5, title: 'edited' }), true);
  assert.equal(s.item(58).title, 'edited');
  assert.equal(s.updated({ id: 999, day: 5 }), false, 'not in this feed');
  assert.equal(s.deleted(58), true);
  assert.equal(s.index(58), -1);
  assert.equal(s.count, 59);
  assert.equal(s.height, height - 100, 'its px: the day header stays, with the next item of its day');
  assert.deepEqual(window(s), shown.filter(id => id !== 58), 'the window keeps its items');
  assert.equal(s.deleted(58), false, 'once');
  // The last item of a day takes its header with it.
  const t = feed();
  t.nextPage();
  t.add([{ id: 3, day: 2 }, { id: 2, day: 1 }, { id: 1, day: 0 }], false);
  const before = t.height;
  t.deleted(2);
  assert.equal(t.height, before - 100 - 30);
});

test('a deletion above the window moves the window up by exactly its px, so what is read stays put', () => {
  const s = loaded(200);
  s.view(6000, 800);
  const [top] = s.spacers(), first = window(s)[0], firstIndex = s.index(first);
  const above = s.at(firstIndex - 5), height = s.height;
  s.deleted(above);
  assert.equal(s.height, height - 100);
  assert.equal(s.spacers()[0], top - 100, 'the spacer above shrinks by the deleted item');
  assert.equal(window(s)[0], first, 'the same items in the window');
});

test('text asked for again that lacks an item the feed holds means it was deleted meanwhile', () => {
  const s = loaded(500);
  s.view(40_000, 500);
  s.view(0, 500);
  const q = s.need();
  assert.deepEqual(q, { after: window(s).at(-1) - 1, limit: 50 });
  const answer = items(q.after + 50, q.after + 1).filter(it => it.id !== q.after + 3);
  s.filled(q, { items: answer, hasMore: true, next: q.after + 50, changes: 520 });
  assert.equal(s.index(q.after + 3), -1, 'gone from the feed');
  assert.equal(s.need(), null, 'and never asked for again');
  assert.equal(s.changes, 0, 'text fetched again says nothing of the items loaded before it');
  const failed = loaded(100);
  failed.view(0, 500);
  failed.filled({ after: 5, limit: 50 }, null);
  assert.equal(failed.count, 100, 'a failed fetch deletes nothing');
});

test('a refresh applies the changes it brings and remembers where the sequence is', () => {
  const s = loaded(30);
  s.saw(30);
  s.view(0, 1000);
  assert.equal(s.beginRefresh(), 30);
  const added = s.refreshed({ items: items(32, 31), gap: false, changes: 35,
    changed: [{ type: 'updated', item: { id: 29, day: 2, title: 'edited' } }, { type: 'deleted', id: 28 }] });
  assert.equal(added, 2);
  assert.equal(s.changes, 35);
  assert.equal(s.item(29).title, 'edited');
  assert.equal(s.index(28), -1);
  assert.deepEqual(ids(s).slice(0, 5), [32, 31, 30, 29, 27]);
  const saved = JSON.parse(JSON.stringify(s.save(null))), r = feed();
  r.restore(saved);
  assert.equal(r.changes, 35, 'kept across Back and reload');
});

// A page as the API answers it: `items` (newest first) and what it says beside them.
const answer = (list, more = {}) => ({ items: list, hasMore: true, ...more });
// The feed's items `from` down to `to` loaded as one refresh answered them: a gap left below.
const withGap = () => {
  const s = loaded(30); // 30..1
  s.beginRefresh();
  assert.equal(s.refreshed({ items: items(80, 71), gap: true, changes: 90 }, true), 10);
  return s;
};

test('a page around an item leaves a gap to the top above it, filled up from under it', () => {
  const s = feed();
  assert.deepEqual(s.aroundPage(40), { around: 40 });
  assert.equal(s.busy, 'page');
  s.add(items(45, 36), true, 36, { prev: 45 });
  assert.deepEqual(s.gap(45), { after: 45, before: null, count: null });
  assert.equal(s.atTop, false, 'the newer items are not loaded');
  assert.deepEqual(s.nextPage(), { before: 36 }, 'older pages as before');
  s.add(items(35, 26), true, 26);
  const q = s.fill(45, 'old');
  assert.deepEqual(q, { after: 45 });
  assert.equal(s.fill(45, 'old'), null, 'one fetch at a time');
  assert.equal(s.gapFilled(45, q, answer(items(55, 46), { next: 55 })), 10);
  assert.equal(s.gap(45), undefined);
  assert.deepEqual(s.gap(55), { after: 55, before: null, count: null }, 'the row goes above what came');
  const last = s.fill(55, 'old');
  s.gapFilled(55, last, answer(items(60, 56), { hasMore: false, next: null }));
  assert.equal(s.atTop, true, 'the feed\'s top is reached: no gap');
  assert.deepEqual(ids(s), items(60, 26).map(it => it.id));
});

test('a gap counts its places, but for items known deleted, and takes a row\'s px', () => {
  const s = withGap();
  assert.deepEqual(ids(s).slice(8, 12), [72, 71, 30, 29]);
  assert.deepEqual(s.gap(30), { after: 30, before: 71, count: 40 });
  const h = s.height;
  s.measuredGap(80);
  assert.equal(s.height, h + 80 - 56, 'its row is in the feed\'s px');
  assert.equal(s.deleted(50), false, 'not loaded');
  assert.equal(s.gap(30).count, 39);
  assert.equal(s.deleted(30), true);
  assert.deepEqual(s.gap(29), { after: 30, before: 71, count: 39 }, 'the row stays above the next item');
  assert.deepEqual(s.window().find(it => it.id === 29)?.gap ?? s.gap(29), s.gap(29));
});

test('a gap fills from its newer end by ranges, down to what is under it', () => {
  const s = withGap();
  const q = s.fill(30, 'new');
  assert.deepEqual(q, { after: 30, before: 71 });
  s.gapFilled(30, q, answer(items(70, 61), { next: 61, rangeDone: false }));
  assert.deepEqual(s.gap(30), { after: 30, before: 61, count: 30 }, 'the row stays above what it held');
  const done = s.fill(30, 'new');
  s.gapFilled(30, done, answer(items(60, 31), { next: null, rangeDone: true }));
  assert.equal(s.gap(30), undefined);
  assert.deepEqual(ids(s), items(80, 1).map(it => it.id));
});

test('a gap fills from its older end too; an answer that reaches what is above closes it', () => {
  const s = withGap();
  const q = s.fill(30, 'old');
  assert.deepEqual(q, { after: 30 });
  s.gapFilled(30, q, answer(items(50, 31), { next: 50 }));
  assert.deepEqual(s.gap(50), { after: 50, before: 71, count: 20 });
  s.gapFilled(50, s.fill(50, 'old'), answer(items(75, 51), { next: 75 }));
  assert.equal(s.gap(50), undefined, 'what came reaches the items above: none twice');
  assert.deepEqual(ids(s), items(80, 1).map(it => it.id));
  const f = withGap();
  f.gapFilled(30, f.fill(30, 'old'), null);
  assert.deepEqual(f.gap(30).count, 40, 'a failed fill leaves the gap as it was');
  assert.equal(f.busy, null);
});

test('filling a gap above the window keeps the window on its items, its px moved by theirs', () => {
  const s = withGap();
  s.view(s.offsetOf(20), 600);
  const before = window(s), y = s.offsetOf(20);
  s.gapFilled(30, s.fill(30, 'new'), answer(items(70, 61), { next: 61 }));
  assert.deepEqual(window(s), before, 'the same items');
  assert.equal(s.spacers()[0] > 0, true);
  assert.equal(s.offsetOf(20) - y > 0, true, 'what is read moves down by what came above: the page scrolls by it');
});

test('a refresh without a gap closes the gap to the top; a gap answered with nothing kept starts over', () => {
  const s = feed();
  s.aroundPage(40);
  s.add(items(45, 36), true, 36, { prev: 45 });
  s.beginRefresh();
  s.refreshed({ items: items(50, 46), gap: false });
  assert.equal(s.atTop, true);
  assert.deepEqual(ids(s), items(50, 36).map(it => it.id));
  s.beginRefresh();
  s.refreshed({ items: items(90, 81), gap: true });
  assert.deepEqual(ids(s), items(90, 81).map(it => it.id), 'not kept: the newest page alone');
});

test('a page\'s cursor goes back with the time it was issued; gaps and that time are kept across a reload', () => {
  const s = feed();
  s.nextPage();
  s.add(items(30, 21), true, 21, { issued: 99 });
  assert.deepEqual(s.nextPage(), { before: 21, issued: 99 });
  s.add(items(20, 11), true, 11);
  assert.deepEqual(s.nextPage(), { before: 11 }, 'a page without it: a bare cursor');
  const again = feed();
  again.restore(JSON.parse(JSON.stringify(withGap().save({ id: 20, offset: 0 }))));
  assert.deepEqual(again.gap(30), { after: 30, before: 71, count: 40 });
  assert.equal(again.height, withGap().height);
});

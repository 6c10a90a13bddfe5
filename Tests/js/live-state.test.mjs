import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveState, retryDelay } from '../../Public/live-state.js';

// An `items` event as the stream sends it: ids newest first.
const event = (ids, gap = false) => ({ items: ids.map(id => ({ id, title: `item ${id}` })), gap });
// A pill state for a feed that shows up to `newest`.
const live = newest => { const s = new LiveState(); s.shown(newest); return s; };

const pill = (count, more = false) => ({ count, more });

test('items arriving in several events are counted once each', () => {
  const s = new LiveState();
  assert.deepEqual(s.shown(50), pill(0));
  assert.deepEqual(s.arrived(event([51])), pill(1));
  assert.deepEqual(s.arrived(event([53, 52])), pill(3));
  assert.deepEqual(s.arrived(event([53, 52, 51])), pill(3), 'a reconnect that sends them again');
});

test('items the feed already shows are not new', () => {
  const s = live(50);
  assert.deepEqual(s.arrived(event([50, 49])), pill(0));
  assert.deepEqual(s.arrived(event([52, 51, 50])), pill(2));
});

test('a refresh takes what it brought in off the pill, and hides it when it brought everything', () => {
  const s = live(50);
  s.arrived(event([54, 53, 52, 51]));
  assert.deepEqual(s.shown(52), pill(2), 'a refresh that ended at 52: 53 and 54 still wait');
  assert.deepEqual(s.shown(54), pill(0));
  assert.deepEqual(s.arrived(event([55])), pill(1));
  assert.deepEqual(s.shown(60), pill(0));
  assert.deepEqual(s.arrived(event([55])), pill(0), 'an event that lost the race to the refresh');
});

test('a gap says more than the count, until a refresh reaches into it', () => {
  const s = live(2);
  assert.deepEqual(s.arrived(event([22, 21, 20, 19, 18, 17, 16, 15, 14, 13], true)), pill(10, true));
  assert.deepEqual(s.arrived(event([23])), pill(11, true));
  assert.deepEqual(s.shown(12), pill(11, true), 'a refresh that ended below the gap\'s items: the skipped ones are still not shown');
  assert.deepEqual(s.shown(13), pill(10));
  assert.deepEqual(s.shown(23), pill(0));
});

test('an empty gap event changes nothing', () => {
  assert.deepEqual(live(5).arrived(event([], true)), pill(0));
});

test('a burst of events is announced once, with the last count; the same count never twice', () => {
  const s = live(50);
  s.arrived(event([51]));
  s.arrived(event([52]));
  s.arrived(event([53]));
  assert.deepEqual(s.announce(), { count: 3, more: false });
  assert.equal(s.announce(), null);
  s.arrived(event([53, 52]));
  assert.equal(s.announce(), null, 'nothing new: nothing to say');
  s.arrived(event([62, 61, 60, 59, 58, 57, 56, 55, 54], true));
  assert.deepEqual(s.announce(), { count: 12, more: true });
});

test('a gap that adds no id is still news: the count became "more than"', () => {
  const s = live(50);
  s.arrived(event([52, 51]));
  assert.deepEqual(s.announce(), { count: 2, more: false });
  s.arrived(event([52, 51], true));
  assert.deepEqual(s.announce(), { count: 2, more: true });
});

test('after a refresh empties the pill, nothing is said, and the next new item is said again', () => {
  const s = live(50);
  s.arrived(event([51]));
  assert.deepEqual(s.announce(), { count: 1, more: false });
  s.shown(51);
  assert.equal(s.announce(), null, 'the refresh announces its own result');
  s.arrived(event([52]));
  assert.deepEqual(s.announce(), { count: 1, more: false });
});

test('a new stream starts after everything the page has, shown or waiting', () => {
  const s = new LiveState();
  assert.equal(s.opening(), 0, 'an empty feed: from the start');
  s.shown(50);
  assert.equal(s.opening(), 50, 'the newest item the feed shows');
  s.arrived(event([53, 52, 51]));
  assert.equal(s.opening(), 53, 'a reopened stream sends only what came meanwhile, not these again');
  s.arrived(event([49]));
  assert.equal(s.opening(), 53, 'never backwards');
  s.shown(60); // a refresh brought in more than the stream had sent
  assert.equal(s.opening(), 60);
});

test('a refused stream is retried after 5 s, doubling to a minute, with up to half again at random', () => {
  assert.equal(retryDelay(0, () => 0), 5_000);
  assert.equal(retryDelay(1, () => 0), 10_000);
  assert.equal(retryDelay(3, () => 0), 40_000);
  assert.equal(retryDelay(4, () => 0), 60_000);
  assert.equal(retryDelay(30, () => 0), 60_000);
  assert.equal(retryDelay(0, () => 1), 7_500);
  assert.equal(retryDelay(30, () => 1), 90_000);
});

test('edits and deletions move where a stream goes on from, and a deleted item waiting leaves the pill', () => {
  const s = live(50);
  s.shown(50, 57);
  assert.equal(s.opening(), 57, 'from the sequence the feed reflects, past its newest id');
  assert.deepEqual(s.arrived(event([58]), 58), pill(1));
  assert.deepEqual(s.changed(59), pill(1));
  assert.equal(s.opening(), 59);
  assert.deepEqual(s.changed(60, 58), pill(0), 'the new item was deleted before it was shown');
  assert.deepEqual(s.changed(61, 12), pill(0));
  assert.equal(s.opening(), 61);
});

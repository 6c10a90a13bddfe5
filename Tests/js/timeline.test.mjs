import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeline, clock, details } from '../../Public/demo/timeline.js';

// A script's state as GET /api/demo/script answers it, with steps of its own over these.
const steps = [
  { name: null, do: 'label', at: 0, after: null, times: 1, runs: 1, text: 'Act 1' },
  { name: null, do: 'addItems', at: 2, after: null, times: 1, runs: 0, count: 3 },
  { name: 'burst', do: 'addItems', at: 10, after: null, times: 1, runs: 0, count: 60 },
  { name: null, do: 'set', at: null, after: { step: 'burst' }, times: 1, runs: 0, knobs: { delayMs: 800, jitterMs: null } },
];
const status = (over = {}) => ({ state: 'playing', manualClock: false, elapsed: 0.5, label: 'Act 1', steps,
  next: { step: 1, at: 2, dueAt: '2026-01-01T00:00:02.000Z' }, ...over });
const marks = view => view.steps.map(s => s.is);

test('no script: idle, nothing next, only nothing to press', () => {
  for (const s of [null, { state: 'idle', elapsed: 0, label: null, next: null, steps: [] }]) {
    const view = timeline(s);
    assert.equal(view.state, 'idle');
    assert.equal(view.next, null);
    assert.deepEqual(view.steps, []);
    assert.deepEqual(view.can, { play: false, pause: false, restart: false });
  }
});

test('the next step is marked, those run are done, the rest wait', () => {
  const view = timeline(status());
  assert.deepEqual(marks(view), ['done', 'next', 'waiting', 'waiting']);
  assert.equal(view.label, 'Act 1');
  assert.deepEqual(view.next, { step: 1, left: 2 }, '1.5 s left, shown as 2 until it is under 1');
});

test('on the wall clock a playing script counts down between events, never below zero', () => {
  assert.equal(timeline(status(), 0.6).next.left, 1);
  assert.equal(timeline(status(), 1.5).next.left, 0);
  assert.equal(timeline(status(), 9).next.left, 0, 'due: the event saying it ran is on its way');
  assert.equal(timeline(status(), 3).elapsed, 3.5);
});

test('paused, or on a manual clock, the time stands still until an event moves it', () => {
  const paused = timeline(status({ state: 'paused' }), 30);
  assert.equal(paused.next.left, 2);
  assert.equal(paused.elapsed, 0.5);
  assert.equal(paused.moving, false);
  const manual = timeline(status({ manualClock: true }), 30);
  assert.equal(manual.next.left, 2);
  assert.equal(manual.moving, false);
  assert.equal(timeline(status()).moving, true);
});

test('what the buttons may do follows the state', () => {
  assert.deepEqual(timeline(status()).can, { play: false, pause: true, restart: true });
  assert.deepEqual(timeline(status({ state: 'paused' })).can, { play: true, pause: false, restart: true });
  assert.deepEqual(timeline(status({ state: 'finished', next: null })).can, { play: false, pause: false, restart: true });
});

test('a repeating step waits until its last run, and a cue step is next only when the server says so', () => {
  const repeating = [{ name: null, do: 'churn', at: 5, after: null, times: 3, runs: 2 }, steps[3]];
  const view = timeline(status({ steps: repeating, next: { step: 0, at: 15 }, elapsed: 12 }));
  assert.deepEqual(marks(view), ['next', 'waiting']);
  assert.equal(view.next.left, 3, 'its next run, not its first');
  assert.deepEqual(marks(timeline(status({ steps: repeating, next: null }))), ['waiting', 'waiting']);
});

test('times read as a clock', () => {
  assert.equal(clock(0), '0:00');
  assert.equal(clock(9.9), '0:09');
  assert.equal(clock(90), '1:30');
  assert.equal(clock(3723), '1:02:03');
  assert.equal(clock(-1), '0:00');
});

test('a step says what it does in the fields it was written with', () => {
  assert.deepEqual(steps.map(s => details(s, 'default')),
    ['', 'count\u00a03', 'count\u00a060', 'delayMs\u00a0800, jitterMs\u00a0default']);
  const step = (fields) => ({ name: null, do: 'x', at: 1, after: null, times: 1, runs: 0, ...fields });
  const words = fields => details(step(fields)).replaceAll('\u00a0', ' ');
  assert.equal(words({ on: 'refresh', status: 503, count: 2, retryAfter: 5 }), 'on refresh, status 503, count 2, retryAfter 5');
  assert.equal(words({ limit: 10, window: 10 }), 'limit 10, window 10s');
  assert.equal(words({ for: 4.5 }), 'for 4.5s');
  assert.equal(details(step({ text: 'Act 2', name: 'two' })), '', 'a label and a name are shown apart');
  assert.equal(details(step({})), '', 'dropStreams: nothing more');
});

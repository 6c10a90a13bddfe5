import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PullState, WheelPull, IDLE, PULLING, ARMED, REFRESHING, SETTLING } from '../../Public/pull-state.js';

const machine = (o) => new PullState({ threshold: 60, maxPull: 140, resistance: 0.5, ...o });

test('starts idle and closed', () => {
  const m = machine();
  assert.equal(m.state, IDLE);
  assert.equal(m.offset, 0);
  assert.equal(m.busy, false);
});

test('a drag of zero from idle changes nothing', () => {
  assert.equal(machine().drag(0), null);
  assert.equal(machine().drag(-30), null);
});

test('dragging under the threshold pulls with resistance and does not refresh', () => {
  const m = machine();
  assert.deepEqual(m.drag(100), { state: PULLING, offset: 50, animate: false, refresh: false });
});

test('crossing the threshold arms, and going back under it disarms', () => {
  const m = machine();
  m.drag(40);
  assert.equal(m.drag(120).state, ARMED); // exactly 60 px
  assert.equal(m.drag(119).state, PULLING);
  assert.equal(m.drag(200).state, ARMED);
  assert.equal(m.drag(10).state, PULLING);
});

test('the pull never goes past maxPull', () => {
  const m = machine();
  assert.equal(m.drag(10_000).offset, 140);
  assert.equal(machine({ maxPull: 20 }).maxPull, 60, 'maxPull is at least the threshold');
});

test('released under the threshold it springs back and requests nothing', () => {
  const m = machine();
  m.drag(80);
  assert.deepEqual(m.release(), { state: IDLE, offset: 0, animate: true, refresh: false });
  assert.equal(m.state, IDLE);
});

test('released while armed it refreshes with the panel held at the threshold', () => {
  const m = machine();
  m.drag(200);
  assert.deepEqual(m.release(), { state: REFRESHING, offset: 60, animate: true, refresh: true });
  assert.equal(m.busy, true);
});

test('released after going back under the threshold requests nothing', () => {
  const m = machine();
  m.drag(200);
  m.drag(60);
  assert.equal(m.release().refresh, false);
});

test('release and cancel from idle do nothing', () => {
  const m = machine();
  assert.equal(m.release(), null);
  assert.equal(m.cancel(), null);
  assert.equal(m.state, IDLE);
});

test('a cancelled gesture springs back without refreshing, even when armed', () => {
  const m = machine();
  m.drag(200);
  assert.deepEqual(m.cancel(), { state: IDLE, offset: 0, animate: true, refresh: false });
});

test('a second pull while refreshing does nothing', () => {
  const m = machine();
  m.drag(200);
  m.release();
  assert.equal(m.drag(300), null);
  assert.equal(m.release(), null);
  assert.equal(m.cancel(), null);
  assert.equal(m.begin(), null);
  assert.equal(m.state, REFRESHING);
  assert.equal(m.offset, 60);
});

test('begin refreshes from idle without a pull', () => {
  const m = machine();
  assert.deepEqual(m.begin(), { state: REFRESHING, offset: 60, animate: true, refresh: true });
});

test('the end of a refresh settles, then the settled panel is idle', () => {
  const m = machine();
  m.begin();
  assert.deepEqual(m.end(), { state: SETTLING, offset: 0, animate: true, refresh: false });
  assert.equal(m.busy, true);
  assert.equal(m.drag(300), null, 'no pull while settling');
  assert.equal(m.begin(), null, 'no refresh while settling');
  assert.deepEqual(m.settled(), { state: IDLE, offset: 0, animate: false, refresh: false });
  assert.equal(m.busy, false);
  assert.equal(m.drag(100).state, PULLING, 'pulls work again');
});

test('end and settled outside their states do nothing', () => {
  const m = machine();
  assert.equal(m.end(), null);
  assert.equal(m.settled(), null);
  m.drag(50);
  assert.equal(m.end(), null);
  assert.equal(m.settled(), null);
  assert.equal(m.state, PULLING);
});

test('defaults follow the seed: 60 px threshold', () => {
  const m = new PullState();
  assert.equal(m.threshold, 60);
  assert.equal(m.drag(m.threshold / m.resistance).state, ARMED);
});

test('a wheel gesture that starts at the top scrolling up pulls', () => {
  const w = new WheelPull(150);
  assert.equal(w.wheel(-50, true, 1000), 50);
  assert.equal(w.wheel(-70, false, 1016), 120, 'the same gesture goes on');
  assert.equal(w.wheel(40, true, 1032), 80, 'scrolling down takes the pull back');
  assert.equal(w.wheel(200, true, 1048), 0);
  assert.equal(w.stop(), true);
});

test('a wheel gesture that starts lower down never pulls, even when it reaches the top', () => {
  const w = new WheelPull(150);
  for (let t = 0; t < 500; t += 16) assert.equal(w.wheel(-30, t > 200, t), null, 'inertia carried to the top');
  assert.equal(w.stop(), false);
  assert.equal(w.wheel(-30, true, 2000), 30, 'a new gesture at the top does');
});

test('scrolling down at the top is not a pull, and a pause starts a new gesture', () => {
  const w = new WheelPull(150);
  assert.equal(w.wheel(30, true, 0), null);
  assert.equal(w.wheel(-30, true, 100), null, 'same gesture');
  assert.equal(w.wheel(-30, true, 300), 30, 'after a pause: a new one');
});

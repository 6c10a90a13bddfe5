// Pull to refresh for any scroll container or the page. It watches scroll position and pointer
// input itself; the host only gives it the element to move and an async `onRefresh`.
// Needs pull-to-refresh.css. The logic lives in pull-state.js; this file only does I/O:
// input in, actions out, DOM writes batched per animation frame, transforms only.
//
//   const ptr = new PullToRefresh(listElement, { onRefresh: async () => { await load(); return '3 new items'; } });
//   button.onclick = () => ptr.beginRefreshing();

import { PullState, WheelPull, IDLE, PULLING, ARMED, REFRESHING, SETTLING } from './pull-state.js';
import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const SLOP = 6; // px of movement before a drag counts as a pull (clicks stay clicks)
const SETTLE_MS = 300;
const MIN_REFRESH_MS = 400; // "Updating…" stays up at least this long: no flash on a fast network
const WHEEL_PAUSE_MS = 150; // a wheel this long still has stopped: an armed panel refreshes

function arrow() {
  const svg = document.createElementNS(SVG, 'svg'), path = document.createElementNS(SVG, 'path');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'ptr-arrow');
  svg.setAttribute('aria-hidden', 'true');
  path.setAttribute('d', 'M12 4v15m-6-6 6 6 6-6');
  svg.append(path);
  return svg;
}

export class PullToRefresh {
  /**
   * @param content the element that moves down with the pull (the list); the panel goes before it
   * @param options onRefresh: () => Promise (resolves to an optional message to show and announce),
   *   scroller: Element or window (default window), threshold (60), maxPull (140), resistance (0.5),
   *   texts: { pull, release, refreshing, failed }
   */
  constructor(content, { onRefresh, scroller = window, texts = {}, ...pull } = {}) {
    this.content = content;
    this.onRefresh = onRefresh;
    this.scroller = scroller;
    this.texts = { pull: 'Pull down to refresh…', release: 'Release to refresh…', refreshing: 'Updating…', failed: "Couldn't refresh.", ...texts };
    this.machine = new PullState(pull); // threshold, maxPull, resistance: its defaults are the panel's
    this.wheelPull = new WheelPull(WHEEL_PAUSE_MS);
    this.reduced = matchMedia('(prefers-reduced-motion: reduce)');

    this.panel = el('div', null, 'ptr');
    this.panel.dataset.state = IDLE;
    this.panel.style.height = `${this.machine.threshold}px`;
    const icon = el('div', null, 'ptr-icon');
    icon.append(arrow(), el('span', null, 'ptr-spinner'));
    const label = el('div', null, 'ptr-label');
    this.status = el('p', null, 'ptr-text');
    this.status.setAttribute('role', 'status');
    this.updated = el('p', null, 'ptr-updated');
    label.append(this.status, this.updated);
    this.panel.append(icon, label);
    content.before(this.panel);
    content.parentElement.classList.add('ptr-host');
    content.classList.add('ptr-content');

    this.gestureEl = scroller === window ? document.body : scroller;
    for (const [t, type, fn] of [
      [scroller, 'scroll', () => this.#touchAction()],
      [scroller, 'wheel', e => this.#wheel(e)],
      [this.gestureEl, 'pointerdown', e => this.#down(e)],
      [this.gestureEl, 'pointermove', e => this.#move(e)],
      [this.gestureEl, 'pointerup', e => this.#up(e)],
      [this.gestureEl, 'pointercancel', e => this.#up(e, true)],
    ]) t.addEventListener(type, fn, { passive: true });
    this.#touchAction();
  }

  /** Opens the panel and runs onRefresh, as a pull would. Returns the refresh promise. */
  beginRefreshing() {
    this.#apply(this.machine.begin());
    return this.running;
  }

  /** Closes the panel, showing `message` (announced) while it closes. Called for you when onRefresh settles. */
  endRefreshing(message) {
    const wait = this.startedAt + MIN_REFRESH_MS - performance.now();
    if (wait > 0) return void setTimeout(() => this.endRefreshing(message), wait);
    const action = this.machine.end();
    if (!action) return;
    if (message) this.message = message;
    this.#apply(action);
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.#apply(this.machine.settled()), this.reduced.matches ? SETTLE_MS / 2 : SETTLE_MS);
  }

  /** Sets the "Last updated" line under the state text. */
  setLastUpdated(text) { this.updated.textContent = text; }

  #atTop() {
    return (this.scroller === window ? window.scrollY : this.scroller.scrollTop) <= 0;
  }

  // At the very top the browser may not pan "up" (finger moving down): that gesture is ours, and
  // our pointer events are not cancelled by native scrolling. Anywhere else scrolling is untouched.
  #touchAction() {
    const value = this.#atTop() ? 'pan-x pan-down pinch-zoom' : '';
    if (this.gestureEl.style.touchAction !== value) this.gestureEl.style.touchAction = value;
  }

  // A pull never starts inside a nested scroller that is not at its own top, nor on a form control.
  #startsInside(target) {
    for (let n = target; n && n !== this.gestureEl; n = n.parentElement) {
      if (n.scrollTop > 0 || n.matches('input,textarea,select,summary,button,[contenteditable]')) return true;
    }
    return false;
  }

  #down(e) {
    if (!e.isPrimary || e.button > 0 || this.machine.busy || !this.#atTop() || this.#startsInside(e.target)) return;
    this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, pulling: false };
  }

  #move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dy = e.clientY - d.y, dx = Math.abs(e.clientX - d.x);
    if (!d.pulling) {
      if (dy < -SLOP || dx > SLOP && dx > dy || !this.#atTop()) { this.drag = null; return; }
      if (dy <= SLOP) return;
      d.pulling = true;
      d.y += SLOP;
      if (e.pointerType === 'mouse') {
        this.gestureEl.setPointerCapture?.(e.pointerId);
        getSelection()?.removeAllRanges();
      }
    }
    this.#apply(this.machine.drag(e.clientY - d.y));
  }

  #up(e, cancelled) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (!d.pulling) return;
    if (e.pointerType === 'mouse' && !cancelled) {
      // The click that follows a mouse pull is not a click on whatever was under the pointer.
      const eat = ev => { ev.preventDefault(); ev.stopPropagation(); };
      addEventListener('click', eat, { capture: true, once: true });
      setTimeout(() => removeEventListener('click', eat, { capture: true }), 0);
    }
    this.#apply(cancelled ? this.machine.cancel() : this.machine.release());
  }

  // Scrolling up at the top pulls the panel as a finger would; the pause that ends the gesture
  // releases it. Pinch zoom (ctrlKey) and nested scrollers are left alone.
  #wheel(e) {
    if (e.ctrlKey || this.drag) return;
    // performance.now(), not e.timeStamp: the gap between events and the timer that ends the
    // gesture are then measured on one clock.
    const distance = this.wheelPull.wheel(e.deltaY * (e.deltaMode ? 16 : 1), this.#atTop() && !this.#startsInside(e.target), performance.now());
    clearTimeout(this.wheelTimer);
    this.wheelTimer = setTimeout(() => this.wheelPull.stop() && this.#apply(this.machine.release()), WHEEL_PAUSE_MS);
    if (distance !== null) this.#apply(this.machine.drag(distance));
  }

  #apply(action) {
    if (!action) return;
    if (action.state === PULLING || action.state === ARMED) this.message = null;
    if (action.refresh) {
      this.startedAt = performance.now();
      this.running = Promise.resolve()
        .then(this.onRefresh)
        .then(m => m, err => err?.message || this.texts.failed)
        .then(m => this.endRefreshing(m));
    }
    this.pending = action;
    this.frame ||= requestAnimationFrame(() => this.#render());
  }

  // All DOM writes for a state change happen here, once per frame.
  #render() {
    this.frame = 0;
    const { state, offset, animate } = this.pending;
    const t = this.texts;
    const text = { [PULLING]: t.pull, [ARMED]: t.release, [REFRESHING]: t.refreshing, [SETTLING]: this.message }[state];
    if (text && this.status.textContent !== text) this.status.textContent = text;
    this.panel.dataset.state = state;
    this.content.classList.toggle('ptr-drag', state === PULLING || state === ARMED);
    this.content.classList.toggle('ptr-anim', animate);
    this.panel.classList.toggle('ptr-anim', animate);
    this.content.style.transform = offset ? `translate3d(0,${offset}px,0)` : '';
    this.panel.style.transform = `translate3d(0,${offset - this.machine.threshold}px,0)`;
  }
}

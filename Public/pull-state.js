// The pull-to-refresh panel as a pure state machine: no DOM, no timers.
// Each method takes one input and returns what the view must show, or null when nothing changes.
// An action is { state, offset, animate, refresh }: the panel state, how far (px) the content is
// pulled down, whether to animate there, and whether the host's refresh must start now.

export const IDLE = 'idle', PULLING = 'pulling', ARMED = 'armed', REFRESHING = 'refreshing', SETTLING = 'settling';

export class PullState {
  constructor({ threshold = 60, maxPull = 140, resistance = 0.5 } = {}) {
    Object.assign(this, { threshold, maxPull: Math.max(maxPull, threshold), resistance });
    this.state = IDLE;
    this.offset = 0;
  }

  /** True while a refresh runs or the panel closes after one: pulls are ignored then. */
  get busy() { return this.state === REFRESHING || this.state === SETTLING; }

  /** The pointer is `distance` px below where the pull started. */
  drag(distance) {
    if (this.busy) return null;
    const offset = Math.min(this.maxPull, Math.max(0, distance) * this.resistance);
    if (this.state === IDLE && offset === 0) return null;
    return this.#go(offset >= this.threshold ? ARMED : PULLING, offset, false);
  }

  /** The pointer was lifted: refresh if armed, else spring back without asking for anything. */
  release() {
    if (this.state === ARMED) return this.#go(REFRESHING, this.threshold, true, true);
    if (this.state === PULLING) return this.#go(IDLE, 0, true);
    return null;
  }

  /** The gesture was taken away (pointercancel, destroy): spring back, never refresh. */
  cancel() {
    return this.state === PULLING || this.state === ARMED ? this.#go(IDLE, 0, true) : null;
  }

  /** A refresh asked for without a pull (button, keyboard, code). */
  begin() { return this.busy ? null : this.#go(REFRESHING, this.threshold, true, true); }

  /** The host's refresh finished (either way): close the panel. */
  end() { return this.state === REFRESHING ? this.#go(SETTLING, 0, true) : null; }

  /** The closing animation is over. */
  settled() { return this.state === SETTLING ? this.#go(IDLE, 0, false) : null; }

  #go(state, offset, animate, refresh = false) {
    this.state = state;
    this.offset = offset;
    return { state, offset, animate, refresh };
  }
}

/** Wheel and trackpad input as a pull. A gesture is a run of wheel events at most `pause` ms
 *  apart. Only a gesture that starts at the top, scrolling up, pulls: inertia that carries a scroll
 *  up to the top belongs to a gesture that started lower down, so it never pulls by itself. */
export class WheelPull {
  constructor(pause = 150) {
    this.pause = pause;
    this.last = -Infinity;
    this.pull = null; // px pulled so far, null when this gesture is not a pull
  }

  /** A wheel event at `now` (ms): the distance to drag the panel to, or null when not pulling. */
  wheel(deltaY, atTop, now) {
    if (now - this.last > this.pause) this.pull = atTop && deltaY < 0 ? 0 : null;
    this.last = now;
    return this.pull === null ? null : this.pull = Math.max(0, this.pull - deltaY);
  }

  /** The wheel paused: true when its gesture was a pull (release the panel). */
  stop() {
    const pulled = this.pull !== null;
    this.pull = null;
    this.last = -Infinity;
    return pulled;
  }
}

// New items while the page is open: the stream (GET /api/events) in, the "N new items" pill and
// one polite announcement out. live-state.js does the counting; this file opens and closes the
// stream and shows what the state says. Bringing the items in is the host's refresh (`onUse`).
import * as api from './api.js';
import { LiveState, retryDelay } from './live-state.js';

const SAY_AFTER_MS = 1000; // a burst of events is announced once, when the count has been still this long

export class LiveFeed {
  /** pill: the <button> to show; region: an aria-live="polite" element; text(count, more): what
   *  the pill says; onUse(): the pill was used. */
  constructor({ pill, region, text, onUse }) {
    Object.assign(this, { pill, region, text, state: new LiveState(), attempts: 0 });
    pill.addEventListener('click', onUse);
    // A hidden tab keeps no stream open (no radio, no battery); shown again, it reopens after what
    // the page has, so what came meanwhile arrives then.
    document.addEventListener('visibilitychange', () => document.hidden ? this.#close() : this.#open());
  }

  /** Opens the stream, once: when the feed knows `newest`, its newest item. */
  start(newest) {
    if (this.started) return;
    this.started = true;
    this.state.shown(newest);
    this.#open();
  }

  /** The feed shows up to `newest` now (a refresh ended): what it brought in leaves the pill. */
  shown(newest) {
    if (this.state.shown(newest)) this.#render();
  }

  #open() {
    if (!this.started || this.source || document.hidden) return;
    const source = this.source = api.events(this.state.cursor);
    source.addEventListener('items', e => this.state.arrived(JSON.parse(e.data)) && this.#render());
    source.addEventListener('open', () => { this.attempts = 0; });
    // After a drop EventSource reconnects by itself (with Last-Event-ID). An answer it refuses,
    // such as the 503 past the server's stream limit, closes it for good: try again later, quietly.
    // No error is shown either way: the pull and the Refresh button work without the stream.
    source.addEventListener('error', () => {
      if (source !== this.source || source.readyState !== EventSource.CLOSED) return;
      this.source = null;
      this.timer = setTimeout(() => this.#open(), retryDelay(this.attempts++));
    });
  }

  #close() {
    this.source?.close();
    this.source = null;
    clearTimeout(this.timer);
  }

  #render() {
    const { count, more } = this.state;
    this.pill.hidden = !count;
    this.pill.textContent = count ? this.text(count, more) : '';
    if (!count) this.region.textContent = ''; // so the same count later is a change, announced again
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(() => {
      const say = this.state.announce();
      if (say) this.region.textContent = this.text(say.count, say.more);
    }, SAY_AFTER_MS);
  }
}

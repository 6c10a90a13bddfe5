// New items while the page is open: GET /api/events in, the "N new items" pill and one polite
// announcement out. live-state.js counts; using the pill is the host's refresh (`onUse`). Edits
// and deletions are the host's to apply at once (`onUpdated(item, id)`, `onDeleted(itemId, id)`,
// each with its event's id), and `expired` (what the stream missed is no longer kept) is the
// host's to refresh from (`onExpired`). The stream's `demo` events (the demo knobs' new state,
// as JSON in `data`) are passed on to `window` for the Demo panel (demo/panel.js), which so needs
// no stream of its own; its `reset` (the server's feed started again) is the host's to act on
// (`onReset`).
import * as api from './api.js';
import { LiveState, retryDelay } from './live-state.js';

export class LiveFeed {
  /** text(count, more): the pill's words; region: an aria-live="polite" element. */
  constructor({ pill, region, text, onUse, onReset, onUpdated, onDeleted, onExpired }) {
    Object.assign(this, { pill, region, text, onReset, onUpdated, onDeleted, onExpired, state: new LiveState(), tries: 0 });
    pill.addEventListener('click', onUse);
    // A hidden tab holds no stream (no battery spent); shown again, it catches up from the cursor.
    document.addEventListener('visibilitychange', () => document.hidden ? this.#close() : this.#open());
  }

  /** Opens the stream once the feed knows its newest item and the sequence it reflects (and the
   *  session is known, so the stream carries it too). */
  start(newest, changes) {
    if (this.started) return;
    this.started = true;
    this.shown(newest, changes);
    api.sessionKnown().then(() => this.#open());
  }

  /** The feed started over: what the stream counted was of the old one. It closes, and opens
   *  again after the new newest item at the next `start`. */
  restart() {
    this.#close();
    this.started = false;
    this.state = new LiveState();
    this.#render(this.state.shown(0));
  }

  /** The feed shows up to `newest` now, and reflects the sequence up to `changes`: what it
   *  brought in leaves the pill. */
  shown(newest, changes) {
    this.#render(this.state.shown(newest, changes));
  }

  #open() {
    if (!this.started || this.source || document.hidden) return;
    const source = this.source = api.events(this.state.opening());
    source.addEventListener('items', e => this.#render(this.state.arrived(JSON.parse(e.data), +e.lastEventId)));
    source.addEventListener('updated', e => {
      this.#render(this.state.changed(+e.lastEventId));
      this.onUpdated(JSON.parse(e.data), +e.lastEventId);
    });
    source.addEventListener('deleted', e => {
      const { id } = JSON.parse(e.data);
      this.#render(this.state.changed(+e.lastEventId, id));
      this.onDeleted(id, +e.lastEventId);
    });
    source.addEventListener('expired', () => this.onExpired());
    source.addEventListener('demo', e => dispatchEvent(new MessageEvent('demo', e))); // passed on as it came
    source.addEventListener('script', e => dispatchEvent(new MessageEvent('script', e))); // the same, for act.js and the panel
    source.addEventListener('reset', () => this.onReset());
    source.onopen = () => { this.tries = 0; };
    // EventSource reconnects after a drop by itself, but gives up on a refused answer (the 503
    // past the stream limit): try again later. Never an error banner: the pull works without it.
    source.onerror = () => {
      if (source !== this.source || source.readyState !== EventSource.CLOSED) return;
      this.source = null;
      this.timer = setTimeout(() => this.#open(), retryDelay(this.tries++));
    };
  }

  #close() {
    this.source?.close();
    this.source = null;
    clearTimeout(this.timer);
  }

  #render({ count, more }) {
    this.pill.hidden = !count;
    this.pill.textContent = count ? this.text(count, more) : '';
    if (!count) this.region.textContent = ''; // the same count later is news again
    // A burst of events is announced once, when the count has been still for a second.
    clearTimeout(this.saying);
    this.saying = setTimeout(() => {
      const say = this.state.announce();
      if (say) this.region.textContent = this.text(say.count, say.more);
    }, 1000);
  }
}

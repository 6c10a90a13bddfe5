// The "N new items" pill as pure state: no DOM, no EventSource, no timers. The feed says the newest
// id it shows, the stream says what arrived; this says how many wait, what to announce and where
// a new stream starts.

export class LiveState {
  constructor() {
    this.newest = 0; // the newest id the feed shows
    this.latest = 0; // the newest id the stream sent
    this.pending = new Set(); // ids the stream sent that the feed does not show yet
    this.missedBelow = Infinity; // a gap: the stream skipped items below this id
    this.said = ''; // the count last announced, as #key gives it
  }

  /** How many new items wait to be brought in. */
  get count() { return this.pending.size; }

  /** True when more wait than the count says (the stream skipped some: a gap). */
  get more() { return this.missedBelow !== Infinity; }

  /** Where a stream opened now starts: after everything the page has, shown or waiting, so that
   *  it sends only what came meanwhile (a gap only when that is more than one event holds). */
  get cursor() { return Math.max(this.newest, this.latest); }

  /** An `items` event ({ items, gap }, newest first) arrived. Ids already shown or already
   *  waiting count nothing. Returns true when what the pill says changed. */
  arrived({ items, gap }) {
    const before = this.#key();
    for (const { id } of items) {
      if (id > this.newest) this.pending.add(id);
      this.latest = Math.max(this.latest, id);
    }
    if (gap && items.length) this.missedBelow = Math.min(this.missedBelow, items.at(-1).id);
    return this.#key() !== before;
  }

  /** The feed shows everything up to `newest` now (it loaded, or a refresh ended): what came in
   *  no longer waits. A refresh brings every item newer than the feed's top, or starts over from
   *  the newest page, so a gap below `newest` is closed too. Returns true when the pill changed. */
  shown(newest) {
    const before = this.#key();
    this.newest = newest;
    for (const id of this.pending) if (id <= newest) this.pending.delete(id);
    if (newest >= this.missedBelow) this.missedBelow = Infinity;
    return this.#key() !== before;
  }

  /** Called once the count has been still for a moment: the count to announce, or null when it
   *  was announced already (or is 0: the refresh that emptied the pill announces its own result). */
  announce() {
    const key = this.#key();
    if (key === this.said) return null;
    this.said = key;
    return this.count ? { count: this.count, more: this.more } : null;
  }

  #key() { return this.count ? `${this.count}${this.more ? '+' : ''}` : ''; }
}

/** How long to wait before opening a stream the server refused (a 503 past its stream limit: an
 *  answer EventSource gives up on) for the `attempt`th time in a row: 5 s, as its Retry-After
 *  says, doubling up to a minute, plus up to half again at random so pages do not all come back
 *  at once. */
export const retryDelay = (attempt, random = Math.random) =>
  Math.min(60_000, 5_000 * 2 ** attempt) * (1 + random() / 2);

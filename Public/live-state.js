// The "N new items" pill as a pure state machine: no DOM, no timers. Each method takes one input
// and returns what the view must do: arrived(), changed() and shown() return the pill, { count,
// more } (the ids the stream sent that the feed does not show yet, and whether the stream skipped
// some); opening() returns where a new stream starts; announce() returns what to say, or null.
// Event ids are points of the server's one sequence (inserts, edits, deletions), so the furthest
// one seen is where a stream opened again goes on from.

export class LiveState {
  #newest = 0; // the newest id the feed shows
  #latest = 0; // the furthest point of the sequence the stream or the feed reached
  #pending = new Set();
  #missedBelow = Infinity; // after a gap: the stream skipped items below this id
  #said = ''; // the last key announced

  /** An `items` event ({ items, gap }, its `id` where given): each id counts once, and none the
   *  feed shows. */
  arrived({ items, gap }, id = 0) {
    for (const { id } of items) {
      if (id > this.#newest) this.#pending.add(id);
      this.#latest = Math.max(this.#latest, id);
    }
    this.#latest = Math.max(this.#latest, id);
    if (gap && items.length) this.#missedBelow = Math.min(this.#missedBelow, items.at(-1).id);
    return this.#pill();
  }

  /** An `updated` or `deleted` event numbered `id`; a deleted item that was waiting no longer
   *  counts. */
  changed(id, deleted) {
    this.#latest = Math.max(this.#latest, id);
    this.#pending.delete(deleted);
    return this.#pill();
  }

  /** The feed shows up to `newest` (it loaded, or a refresh ended), and reflects the sequence up
   *  to `changes`. A refresh brings every newer item or starts over from the newest page, so a
   *  gap below `newest` is closed too. */
  shown(newest, changes = 0) {
    this.#newest = newest;
    this.#latest = Math.max(this.#latest, changes);
    for (const id of this.#pending) if (id <= newest) this.#pending.delete(id);
    if (newest >= this.#missedBelow) this.#missedBelow = Infinity;
    return this.#pill();
  }

  /** A stream opens: its cursor. It starts after all the page has, shown or waiting, so only
   *  what is new comes. */
  opening() { return Math.max(this.#newest, this.#latest); }

  /** What to announce once the count has been still a moment: { count, more }, or null when it
   *  was said already or is 0 (the refresh that emptied the pill says its own result). */
  announce() {
    const { count, more } = this.#pill(), key = count ? `${count}${more}` : '';
    if (key === this.#said) return null;
    this.#said = key;
    return key ? { count, more } : null;
  }

  #pill() { return { count: this.#pending.size, more: this.#missedBelow < Infinity }; }
}

/** The wait before the `attempt`th try in a row at a stream EventSource gave up on (the 503 past
 *  the server's limit): 5 s as its Retry-After says, doubling to a minute, plus up to half again
 *  at random so that pages do not all come back at once. */
export const retryDelay = (attempt, random = Math.random) =>
  Math.min(60e3, 5e3 * 2 ** attempt) * (1 + random() / 2);

// The feed's data and window as one pure object: no DOM, no fetch, no timers. The page tells it
// what arrived, what it measured and where the viewport is; it says what to fetch and to show.
// A loaded item costs three numbers (id, day, height); item text is kept only near the window and
// fetched again by cursor (ids never change), so memory stays flat however deep the reader goes.

export class FeedState {
  /** dayOf(item): a number per local day; est: px per item until one is measured. */
  constructor({ dayOf, est = 120, head = 34, margin = 1.5, keep = 150 } = {}) {
    Object.assign(this, { dayOf, est, head, margin, keep });
    this.reset();
  }

  reset() {
    this.ids = []; this.days = []; this.hs = []; // per item, newest first; ids strictly descend
    this.items = new Map(); // id -> item, near the window only
    this.first = this.last = 0; // the window: indexes [first, last)
    this.top = this.total = 0; // px from the feed's top to item `first`, and to its end
    this.hasMore = true;
    this.failed = false;
    this.busy = null; // 'page' or 'refresh', never both
    this.filling = false;
  }

  /** The newest id loaded, 0 while there is none: the cursor for what is newer. */
  get newest() { return this.ids[0] || 0; }

  /** True when item i opens a day: a day header sits above it. */
  opens(i) { return i === 0 || this.days[i] !== this.days[i - 1]; }

  /** Item i's px in the feed, its day header included. */
  size(i) { return this.hs[i] + (this.opens(i) ? this.head : 0); }

  /** px from the feed's top to item i (proportional to i: for jumps, not for every frame). */
  offsetOf(i) {
    let y = 0;
    for (let j = 0; j < i; j++) y += this.size(j);
    return y;
  }

  /** Where item `id` is, by binary search on the descending ids; -1 when not loaded. */
  index(id) {
    let lo = 0, hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, v = this.ids[mid];
      if (v === id) return mid;
      if (v > id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }

  /** The query for the next (older) page, marking it in flight; null when none may start. */
  nextPage() {
    if (this.busy || !this.hasMore || this.failed) return null;
    this.busy = 'page';
    return this.ids.length ? { before: this.ids.at(-1) } : {};
  }

  /** A page arrived: older items go at the end, any already loaded is skipped. */
  add(items, hasMore) {
    for (const it of items) {
      if (this.ids.length && it.id >= this.ids.at(-1)) continue;
      this.ids.push(it.id); this.days.push(this.dayOf(it)); this.hs.push(this.est);
      this.items.set(it.id, it);
      this.total += this.size(this.ids.length - 1);
    }
    this.hasMore = hasMore;
    this.busy = null;
  }

  pageFailed() { this.busy = null; this.failed = true; }

  /** The reader asked to try a failed page again: its query, as nextPage() gives it. */
  retryPage() {
    this.failed = false;
    return this.nextPage();
  }

  /** What the row under the feed shows: 'loading' (skeleton rows) while a page is fetched,
   *  'error' after a failed one, 'empty' for a feed without any item, 'end' after the last page,
   *  else '' (more to come, none asked for yet). */
  get end() {
    if (this.busy === 'page') return 'loading';
    if (this.failed) return 'error';
    return this.hasMore ? '' : this.ids.length ? 'end' : 'empty';
  }

  /** The `after` of a refresh, marking it in flight; null while a page loads. */
  beginRefresh() {
    if (this.busy) return null;
    this.busy = 'refresh';
    return this.newest;
  }

  /** A refresh answered: a gap starts over from its items, else they go on top, the window
   *  staying on the same items. Returns how many were added. */
  refreshed({ items, gap }) {
    if (gap) this.reset();
    const fresh = items.filter(it => !this.ids.length || it.id > this.ids[0]), k = fresh.length;
    this.busy = null;
    if (!k) return 0;
    const had = this.ids.length, before = had ? this.size(0) : 0;
    this.ids.unshift(...fresh.map(it => it.id));
    this.days.unshift(...fresh.map(this.dayOf));
    this.hs.unshift(...fresh.map(() => this.est));
    for (const it of fresh) this.items.set(it.id, it);
    let grown = -before;
    for (let i = 0; i <= k && i < this.ids.length; i++) grown += this.size(i);
    this.total += grown;
    if (had) { this.top += grown; this.first += k; this.last += k; }
    return k;
  }

  refreshFailed() { this.busy = null; }

  /** Item i was rendered `h` px tall, its gap below included. */
  measured(i, h) {
    const d = h - this.hs[i];
    if (!d) return;
    this.hs[i] = h;
    this.total += d;
    if (i < this.first) this.top += d;
    this.est += (h - this.est) / 8; // items not seen yet are guessed from the recent ones
  }

  /** The day header is `h` px tall (measured once; every total is recounted). */
  measuredHead(h) {
    if (h === this.head) return;
    this.head = h;
    this.total = this.offsetOf(this.ids.length);
    this.top = this.offsetOf(this.first);
  }

  /** The viewport shows feed px [y, y + vh]. The window covers `margin` screens either side and
   *  moves only when the viewport comes within half of that of its edge, so most scroll events
   *  change nothing. Returns true when it moved. Work is proportional to how far it moved. */
  view(y, vh) {
    const n = this.ids.length, m = this.margin * vh;
    let end = this.top;
    for (let i = this.first; i < this.last; i++) end += this.size(i);
    if (this.last > this.first && (!this.first || this.top <= y - m / 2) &&
        (this.last === n || end >= y + vh + m / 2) || !n) return false;
    let i = Math.min(this.first, n - 1), top = this.top;
    while (i > 0 && top > y - m) top -= this.size(--i);
    while (i < n - 1 && top + this.size(i) <= y - m) top += this.size(i++);
    let j = i;
    for (end = top; j < n && end < y + vh + m;) end += this.size(j++);
    const moved = i !== this.first || j !== this.last;
    Object.assign(this, { first: i, last: j, top });
    if (moved) this.#evict();
    return moved;
  }

  /** Heights of the spacers above and below the window. A window that starts inside a day
   *  repeats that day's header, which takes its px from the spacer above. Sums of measured px
   *  drift by rounding: at the feed's ends a spacer is exactly 0, and none is ever negative (CSS
   *  ignores a negative height, which would leave the old one on screen: a blank end). */
  spacers() {
    let end = this.top;
    for (let i = this.first; i < this.last; i++) end += this.size(i);
    return [this.first && Math.max(0, this.top - (this.opens(this.first) ? 0 : this.head)),
      this.last < this.ids.length ? Math.max(0, this.total - end) : 0];
  }

  /** The query for text the window lacks (dropped earlier), marking it in flight, or null.
   *  Text missing at the window's top is fetched upwards (`after`), else downwards (`before`). */
  need() {
    if (this.filling) return null;
    let a = this.first;
    while (a < this.last && this.items.has(this.ids[a])) a++;
    if (a === this.last) return null;
    let b = a;
    while (b + 1 < this.last && !this.items.has(this.ids[b + 1])) b++;
    this.filling = true;
    return a === this.first ? { after: this.ids[b] - 1, limit: 50 } : { before: this.ids[a] + 1, limit: 50 };
  }

  /** Text for a `need()` arrived (or, empty, failed: it is asked again when the window moves). */
  filled(items) {
    for (const it of items) if (this.index(it.id) >= 0) this.items.set(it.id, it);
    this.filling = false;
    this.#evict();
  }

  // Text further than keep/2 items from the window is dropped.
  #evict() {
    if (this.items.size <= this.keep) return;
    const n = this.ids.length, k = this.keep >> 1;
    const hi = this.ids[Math.max(0, this.first - k)], lo = this.ids[Math.min(n - 1, this.last + k)];
    for (const id of this.items.keys()) if (id > hi || id < lo) this.items.delete(id);
  }

  /** What sessionStorage keeps to come back to `anchor` ({ id, offset }): ids, days and heights,
   *  no text. Ids and days are stored as runs: a seeded feed's million ids are one run. */
  save(anchor) {
    return { ids: runs(this.ids, 1), days: runs(this.days, 0), hs: this.hs, head: this.head,
      est: this.est, hasMore: this.hasMore, anchor };
  }

  /** Loads what `save` kept; the window is then empty until `view`. Returns the anchor. */
  restore(s) {
    this.reset();
    this.ids = unrun(s.ids, 1); this.days = unrun(s.days, 0); this.hs = s.hs;
    Object.assign(this, { head: s.head, est: s.est, hasMore: s.hasMore });
    this.total = this.offsetOf(this.ids.length);
    return s.anchor;
  }
}

// [x, x - step, x - 2 * step, …] as [[x, count], …].
const runs = (xs, step) => xs.reduce((r, x) => {
  const l = r.at(-1);
  if (l && x === l[0] - l[1] * step) l[1]++; else r.push([x, 1]);
  return r;
}, []);
const unrun = (r, step) => r.flatMap(([x, n]) => Array.from({ length: n }, (_, i) => x - i * step));

// The feed's data and window as one pure object: no DOM, no fetch, no timers. The page tells it
// what arrived, what it measured and where the viewport is; it says what to fetch and to show.
// A loaded item costs three numbers (id, day, height); item text is kept only near the window and
// fetched again by cursor (ids never change), so memory stays flat however deep the reader goes.
// How it keeps them is its own: the page reads it through the getters and methods below.
//
// Items change under the reader: an edit replaces an item's text where it is kept, a deletion
// takes the item out, and text fetched again that lacks an item the window holds means it was
// deleted meanwhile. `changes` is the point of the server's one sequence (inserts, edits and
// deletions) the items reflect: a refresh sends it and applies the changes it answers.
//
// Ids are unique within one feed only: a store reset, or another data file, starts them again.
// The server names its feed in its answers (`feed`); the page sends that name with every page it
// asks for, and an answer of another feed (or the server's 410 for a page of the old one) means
// the page must start over from the newest page: `reset`, which also drops, by `generation`,
// whatever was asked of the feed before.

export class FeedState {
  #ids; #days; #hs; // per item, newest first; ids strictly descend
  #items; // id -> item, near the window only
  #first; #last; // the window: indexes [first, last)
  #top; #total; // px from the feed's top to item `first`, and to its end
  #hasMore; #failed; #busy; #filling;
  #next; // the next page's cursor, as the last page gave it: its last place, a deleted item's or not
  #changes; // the point of the server's sequence the items reflect, 0 until an answer says
  #feed; // the feed's name, as the server's answers give it; null until one does
  #generation = 0;

  /** dayOf(item): a number per local day; est: px per item until one is measured. */
  constructor({ dayOf, est = 120, head = 34, margin = 1.5, keep = 150 } = {}) {
    Object.assign(this, { dayOf, est, head, margin, keep });
    this.reset();
  }

  /** Forgets everything, the feed's name too: the page starts over. Answers to what was asked
   *  before are stale. */
  reset() {
    this.#generation++;
    this.#feed = null;
    this.#clear();
  }

  // Forgets the items and the window, in the same feed.
  #clear() {
    this.#ids = []; this.#days = []; this.#hs = [];
    this.#items = new Map();
    this.#first = this.#last = this.#top = this.#total = 0;
    this.#hasMore = true;
    this.#next = null;
    this.#changes = 0;
    this.#failed = false;
    this.#busy = null;
    this.#filling = false;
  }

  // Reading it.

  /** How many items are loaded. */
  get count() { return this.#ids.length; }

  /** The newest id loaded, 0 while there is none: the cursor for what is newer. */
  get newest() { return this.#ids[0] || 0; }

  /** The point of the server's sequence the items reflect (a page's, a refresh's `changes`, or
   *  a stream event's id): what a refresh, and a stream, go on from. */
  get changes() { return this.#changes; }

  /** Everything the feed holds reflects the server's sequence up to `n`: the first page says so,
   *  a refresh, and each stream event, which come in order. (A later page does not: the items
   *  loaded before it may have changed since.) */
  saw(n) { if (n > this.#changes) this.#changes = n; }

  /** The id at place i (0: the newest), undefined past either end. */
  at(i) { return this.#ids[i]; }

  /** Where item `id` is, by binary search on the descending ids; -1 when not loaded. */
  index(id) {
    let lo = 0, hi = this.#ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, v = this.#ids[mid];
      if (v === id) return mid;
      if (v > id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }

  /** Item `id`'s text, while it is kept (near the window). */
  item(id) { return this.#items.get(id); }

  /** How many items' text is kept. */
  get kept() { return this.#items.size; }

  /** The feed's size to assistive technology: -1 while more may come. */
  get setSize() { return this.#hasMore ? -1 : this.#ids.length; }

  /** What a fetch is running: 'page', 'refresh' or null, never both. The one place that says so. */
  get busy() { return this.#busy; }

  /** Moves at each `reset`: an answer to a request made before it moved is not for this feed. */
  get generation() { return this.#generation; }

  /** Whether an answer that names feed `id` is of the feed loaded: yes where either does not say
   *  (a server without feed names; nothing loaded yet, and then the feed is `id` from now on). */
  belongs(id) {
    this.#feed ??= id ?? null;
    return !id || id === this.#feed;
  }

  /** The feed's px, day headers included. */
  get height() { return this.#total; }

  /** The items in the window, top to bottom: { i, id, day, headed, item, h }: `headed` when a day
   *  header goes above it (it opens its day, or the window starts inside its day), `item` its text
   *  if kept, `h` its px. */
  window() {
    const shown = [];
    for (let i = this.#first; i < this.#last; i++) {
      const id = this.#ids[i];
      shown.push({ i, id, day: this.#days[i], headed: i === this.#first || this.#opens(i), item: this.#items.get(id), h: this.#hs[i] });
    }
    return shown;
  }

  /** px from the feed's top to item `id` (proportional to its place: for jumps, not for every frame). */
  offsetOf(id) { return this.#offset(this.index(id)); }

  /** What the row under the feed shows: 'loading' (skeleton rows) while a page is fetched,
   *  'error' after a failed one, 'empty' for a feed without any item, 'end' after the last page,
   *  else '' (more to come, none asked for yet). */
  get end() {
    if (this.#busy === 'page') return 'loading';
    if (this.#failed) return 'error';
    return this.#hasMore ? '' : this.#ids.length ? 'end' : 'empty';
  }

  /** Heights of the spacers above and below the window. A window that starts inside a day
   *  repeats that day's header, which takes its px from the spacer above. Sums of measured px
   *  drift by rounding: at the feed's ends a spacer is exactly 0, and none is ever negative (CSS
   *  ignores a negative height, which would leave the old one on screen: a blank end). */
  spacers() {
    const end = this.#windowEnd();
    return [this.#first && Math.max(0, this.#top - (this.#opens(this.#first) ? 0 : this.head)),
      this.#last < this.#ids.length ? Math.max(0, this.#total - end) : 0];
  }

  // Pages and refreshes.

  /** The query for the next (older) page, marking it in flight; null when none may start. */
  nextPage() {
    if (this.#busy || !this.#hasMore || this.#failed) return null;
    this.#busy = 'page';
    const before = Math.min(this.#next ?? Infinity, this.#ids.at(-1) ?? Infinity);
    return before < Infinity ? this.#named({ before }) : {};
  }

  /** A page arrived: older items go at the end, any already loaded is skipped. `next` is the
   *  page's own cursor for the one after it (a page whose items were all deleted has no item to
   *  go on from); without it, the last item's id. */
  add(items, hasMore, next) {
    for (const it of items) {
      if (this.#ids.length && it.id >= this.#ids.at(-1)) continue;
      this.#ids.push(it.id); this.#days.push(this.dayOf(it)); this.#hs.push(this.est);
      this.#items.set(it.id, it);
      this.#total += this.#size(this.#ids.length - 1);
    }
    if (next != null) this.#next = Math.min(this.#next ?? Infinity, next);
    this.#hasMore = hasMore;
    this.#busy = null;
  }

  pageFailed() { this.#busy = null; this.#failed = true; }

  /** The reader asked to try a failed page again: its query, as nextPage() gives it. */
  retryPage() {
    this.#failed = false;
    return this.nextPage();
  }

  /** The `after` of a refresh, marking it in flight; null while a page loads. */
  beginRefresh() {
    if (this.#busy) return null;
    this.#busy = 'refresh';
    return this.newest;
  }

  /** A refresh answered: a gap starts over from its items, else its changes are applied and its
   *  items go on top, the window staying on the same items. Returns how many were added. */
  refreshed({ items, gap, changed = [], changes = 0 }) {
    if (gap) this.#clear();
    else for (const c of changed) c.type === 'deleted' ? this.deleted(c.id) : this.updated(c.item);
    this.saw(changes);
    const ids = this.#ids, fresh = items.filter(it => !ids.length || it.id > ids[0]), k = fresh.length;
    this.#busy = null;
    if (!k) return 0;
    const had = ids.length, before = had ? this.#size(0) : 0;
    ids.unshift(...fresh.map(it => it.id));
    this.#days.unshift(...fresh.map(this.dayOf));
    this.#hs.unshift(...fresh.map(() => this.est));
    for (const it of fresh) this.#items.set(it.id, it);
    let grown = -before;
    for (let i = 0; i <= k && i < ids.length; i++) grown += this.#size(i);
    this.#total += grown;
    if (had) { this.#top += grown; this.#first += k; this.#last += k; }
    return k;
  }

  refreshFailed() { this.#busy = null; }

  // Items that change.

  /** Item `item.id` was edited: its text is replaced where it is kept. Returns whether the feed
   *  holds it (its article, if drawn, must be drawn again: it may be taller or shorter). */
  updated(item) {
    if (this.index(item.id) < 0) return false;
    if (this.#items.has(item.id)) this.#items.set(item.id, item);
    return true;
  }

  /** Item `id` was deleted: it leaves the feed, and every px after it moves up by its height
   *  (its day's header goes to the next item of its day, or with it). Returns whether the feed
   *  held it. The window keeps its items; one above it moves the window's px up. */
  deleted(id) {
    const i = this.index(id);
    this.#items.delete(id);
    if (i < 0) return false;
    const had = this.#ids.length, gone = this.#size(i), next = i + 1 < had ? this.#size(i + 1) : 0;
    this.#ids.splice(i, 1); this.#days.splice(i, 1); this.#hs.splice(i, 1);
    const now = i < had - 1 ? this.#size(i) : 0; // the next item, which may open the day now
    this.#total += now - next - gone;
    if (i < this.#first) {
      this.#top -= gone;
      if (i + 1 < this.#first) this.#top += now - next; // the next one is above the window too
      this.#first--; this.#last--;
    } else if (i < this.#last) this.#last--;
    return true;
  }

  // Measuring and scrolling.

  /** Item `id` was rendered `h` px tall, its gap below included. */
  measured(id, h) {
    const i = this.index(id), d = h - this.#hs[i];
    if (!d) return;
    this.#hs[i] = h;
    this.#total += d;
    if (i < this.#first) this.#top += d;
    this.est += (h - this.est) / 8; // items not seen yet are guessed from the recent ones
  }

  /** The day header is `h` px tall (measured once; every total is recounted). */
  measuredHead(h) {
    if (h === this.head) return;
    this.head = h;
    this.#total = this.#offset(this.#ids.length);
    this.#top = this.#offset(this.#first);
  }

  /** The viewport shows feed px [y, y + vh]. The window covers `margin` screens either side and
   *  moves only when the viewport comes within half of that of its edge, so most scroll events
   *  change nothing. Returns true when it moved. Work is proportional to how far it moved. */
  view(y, vh) {
    const n = this.#ids.length, m = this.margin * vh;
    if (this.#last > this.#first && (!this.#first || this.#top <= y - m / 2) &&
        (this.#last === n || this.#windowEnd() >= y + vh + m / 2) || !n) return false;
    let i = Math.min(this.#first, n - 1), top = this.#top;
    while (i > 0 && top > y - m) top -= this.#size(--i);
    while (i < n - 1 && top + this.#size(i) <= y - m) top += this.#size(i++);
    let j = i;
    for (let end = top; j < n && end < y + vh + m;) end += this.#size(j++);
    const moved = i !== this.#first || j !== this.#last;
    this.#first = i; this.#last = j; this.#top = top;
    if (moved) this.#evict();
    return moved;
  }

  /** The query for text the window lacks (dropped earlier), marking it in flight, or null.
   *  Text missing at the window's top is fetched upwards (`after`), else downwards (`before`). */
  need() {
    if (this.#filling) return null;
    const ids = this.#ids, has = i => this.#items.has(ids[i]);
    let a = this.#first;
    while (a < this.#last && has(a)) a++;
    if (a === this.#last) return null;
    let b = a;
    while (b + 1 < this.#last && !has(b + 1)) b++;
    this.#filling = true;
    return this.#named(a === this.#first ? { after: ids[b] - 1, limit: 50 } : { before: ids[a] + 1, limit: 50 });
  }

  /** Text for a `need()` arrived: the page answered to `query` (or nothing: it failed, and is
   *  asked again when the window moves). An item it covered but lacks was deleted: it goes. */
  filled(query, page) {
    const items = page?.items || [];
    for (const it of items) if (this.index(it.id) >= 0) this.#items.set(it.id, it);
    if (page) {
      // The places the answer covered: up from `after` or down from `before`, to its `next`.
      const [lo, hi] = query.after != null ? [query.after + 1, page.hasMore ? page.next : Infinity]
        : [page.hasMore ? page.next : -Infinity, query.before - 1];
      const got = new Set(items.map(it => it.id));
      for (const id of this.#ids.filter(id => id >= lo && id <= hi && !got.has(id))) this.deleted(id);
    }
    this.#filling = false;
    this.#evict();
  }

  // Leaving and coming back.

  /** What sessionStorage keeps to come back to `anchor` ({ id, offset }): ids, days and heights,
   *  no text. Ids and days are stored as runs: a seeded feed's million ids are one run. */
  save(anchor) {
    return { ids: runs(this.#ids, 1), days: runs(this.#days, 0), hs: this.#hs, head: this.head,
      est: this.est, hasMore: this.#hasMore, next: this.#next, changes: this.#changes, feed: this.#feed, anchor };
  }

  /** Loads what `save` kept; the window is then empty until `view`. Returns the anchor. */
  restore(s) {
    this.reset();
    this.#ids = unrun(s.ids, 1); this.#days = unrun(s.days, 0); this.#hs = s.hs;
    Object.assign(this, { head: s.head, est: s.est });
    this.#hasMore = s.hasMore;
    this.#next = s.next ?? null;
    this.#changes = s.changes ?? 0;
    this.#feed = s.feed ?? null;
    this.#total = this.#offset(this.#ids.length);
    return s.anchor;
  }

  // A query by cursor, with the feed's name where the server gave one: the cursor is an id of it.
  #named(query) { return this.#feed ? { ...query, feed: this.#feed } : query; }

  // True when item i opens a day: a day header sits above it.
  #opens(i) { return i === 0 || this.#days[i] !== this.#days[i - 1]; }

  // Item i's px in the feed, its day header included.
  #size(i) { return this.#hs[i] + (this.#opens(i) ? this.head : 0); }

  // px from the feed's top to item i.
  #offset(i) {
    let y = 0;
    for (let j = 0; j < i; j++) y += this.#size(j);
    return y;
  }

  // px from the feed's top to the window's end.
  #windowEnd() {
    let end = this.#top;
    for (let i = this.#first; i < this.#last; i++) end += this.#size(i);
    return end;
  }

  // Text further than keep/2 items from the window is dropped.
  #evict() {
    if (this.#items.size <= this.keep) return;
    const n = this.#ids.length, k = this.keep >> 1;
    const hi = this.#ids[Math.max(0, this.#first - k)], lo = this.#ids[Math.min(n - 1, this.#last + k)];
    for (const id of this.#items.keys()) if (id > hi || id < lo) this.#items.delete(id);
  }
}

// [x, x - step, x - 2 * step, …] as [[x, count], …].
const runs = (xs, step) => xs.reduce((r, x) => {
  const l = r.at(-1);
  if (l && x === l[0] - l[1] * step) l[1]++; else r.push([x, 1]);
  return r;
}, []);
const unrun = (r, step) => r.flatMap(([x, n]) => Array.from({ length: n }, (_, i) => x - i * step));

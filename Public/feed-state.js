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
//
// The items need not reach the feed's top, nor follow each other without a hole: a page around an
// item (`around`) leaves the newer ones above it to load, and a refresh after a burst leaves a gap
// between the newest page and what the reader holds. Each such hole is a gap, kept by the id of
// the item under it and drawn as a row above that item (its px in that item's size): `after` and
// `before` are the places it spans (`before` null: up to the feed's top), and it is filled from
// either end by a page answered into it (`fill`, `gapFilled`).

export class FeedState {
  #ids; #days; #hs; // per item, newest first; ids strictly descend
  #items; // id -> item, near the window only
  #first; #last; // the window: indexes [first, last)
  #top; #total; // px from the feed's top to item `first`, and to its end
  #hasMore; #failed; #busy; #filling;
  #next; // the next page's cursor, as the last page gave it: its last place, a deleted item's or not
  #changes; // the point of the server's sequence the items reflect, 0 until an answer says
  #issued; // when the server issued `next` (its links' `issued=`), sent back with it
  #gaps; // id of the item under a gap -> { after, before, dead: ids known deleted in it }
  #feed; // the feed's name, as the server's answers give it; null until one does
  #generation = 0;

  /** dayOf(item): a number per local day; est: px per item until one is measured. */
  constructor({ dayOf, est = 120, head = 34, gapH = 56, margin = 1.5, keep = 150 } = {}) {
    Object.assign(this, { dayOf, est, head, gapH, margin, keep });
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
    this.#next = this.#issued = null;
    this.#gaps = new Map();
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

  /** What a fetch is running: 'page', 'refresh', 'gap' or null, never two. The one place that says so. */
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

  /** The items in the window, top to bottom: { i, id, day, headed, item, h, gap }: `headed` when a
   *  day header goes above it (it opens its day, or the window starts inside its day), `item` its
   *  text if kept, `h` its px, `gap` the gap above it, if any (as `gap()` tells it). */
  window() {
    const shown = [];
    for (let i = this.#first; i < this.#last; i++) {
      const id = this.#ids[i];
      shown.push({ i, id, day: this.#days[i], headed: i === this.#first || this.#opens(i), item: this.#items.get(id), h: this.#hs[i], gap: this.gap(id) });
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
    if (before === Infinity) return {};
    // The cursor goes back with the time the server issued it, which it may refuse as too old.
    return this.#named(before === this.#next && this.#issued ? { before, issued: this.#issued } : { before });
  }

  /** The query for the page around item `id`, the first page of a feed opened on that item. */
  aroundPage(id) {
    this.#busy = 'page';
    return { around: id };
  }

  /** A page arrived: older items go at the end, any already loaded is skipped. `next` is the
   *  page's own cursor for the one after it (a page whose items were all deleted has no item to
   *  go on from); without it, the last item's id. `prev`, of a page around an item: the newest
   *  place it covers, under which the feed goes on upwards, a gap to the top; `issued`, when the
   *  server issued `next`. */
  add(items, hasMore, next, { prev, issued } = {}) {
    const top = !this.#ids.length && prev != null;
    for (const it of items) {
      if (this.#ids.length && it.id >= this.#ids.at(-1)) continue;
      this.#ids.push(it.id); this.#days.push(this.dayOf(it)); this.#hs.push(this.est);
      this.#items.set(it.id, it);
      this.#total += this.#size(this.#ids.length - 1);
    }
    if (next != null && next <= (this.#next ?? Infinity)) { this.#next = next; this.#issued = issued ?? null; }
    if (top && this.#ids.length) this.#setGap(this.#ids[0], { after: prev, before: null });
    this.#hasMore = hasMore;
    this.#busy = null;
  }

  /** The gap above item `id`, or undefined: { after, before, count } (`count` the items in it,
   *  null where it reaches the feed's top, which moves). Places whose item is known deleted are
   *  not counted. */
  gap(id) {
    const g = this.#gaps.get(id);
    return g && { after: g.after, before: g.before,
      count: g.before == null ? null : g.before - g.after - 1 - g.dead.filter(d => d > g.after && d < g.before).length };
  }

  /** Whether the items reach the feed's top: no gap above the newest loaded. */
  get atTop() { return this.gap(this.newest)?.before !== null; }

  /** The query that fills the gap above item `id` from its older `end` ('old': up from what is
   *  under it, the places right above `after`) or its newer one ('new': down from `before`, a
   *  range), marking it in flight; null while a fetch runs or when there is no such gap. */
  fill(id, end) {
    const g = this.#gaps.get(id);
    if (this.#busy || !g) return null;
    this.#busy = 'gap';
    return this.#named(end === 'new' && g.before != null ? { after: g.after, before: g.before } : { after: g.after });
  }

  /** The page `fill(id, …)` asked for as `query` arrived (or nothing: it failed). Its items go
   *  into the gap, above item `id`: what is under the viewport's anchor stays where it was, as
   *  the page keeps it (render). The gap shrinks from the end it was filled from, or closes.
   *  Returns how many items came in. */
  gapFilled(id, query, page) {
    this.#busy = null;
    const g = this.#gaps.get(id), i = this.index(id);
    if (!page || !g || i < 0) return 0;
    const fresh = page.items.filter(it => it.id > g.after && (g.before == null || it.id < g.before) && this.index(it.id) < 0);
    const k = fresh.length;
    this.#ids.splice(i, 0, ...fresh.map(it => it.id));
    this.#days.splice(i, 0, ...fresh.map(this.dayOf));
    this.#hs.splice(i, 0, ...fresh.map(() => this.est));
    for (const it of fresh) this.#items.set(it.id, it);
    if (i <= this.#first) { this.#first += k; this.#last += k; } else if (i < this.#last) this.#last += k;
    this.#gaps.delete(id);
    if (query.before != null) { // a range, from the newer end: it goes on below `next`
      if (!page.rangeDone) this.#gaps.set(id, { ...g, before: page.next });
    } else { // up from `after`: the row goes above what came, under the places not read yet
      const up = page.hasMore ? page.next : Infinity;
      if (up < (g.before ?? Infinity) - 1 && !page.items.some(it => it.id >= (g.before ?? Infinity))) {
        this.#gaps.set(k ? fresh[0].id : id, { ...g, after: up });
      }
    }
    this.#recount();
    return k;
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

  /** A refresh answered: its changes are applied and its items go on top, the window staying on
   *  the same items. A `gap` (more new items than it brings) starts over from its items, unless
   *  the page `kept` what it holds, having the changes since from elsewhere (`changed`): then the
   *  gap is a row between its items and what was loaded. Returns how many were added. */
  refreshed({ items, gap, changed = [], changes = 0 }, kept = false) {
    const top = this.newest;
    if (gap && !kept) this.#clear();
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
    const old = this.#gaps.get(top);
    if (had && (gap || old)) {
      this.#gaps.delete(top);
      // What came reaches down to what was loaded, or a gap is left between.
      if (gap) this.#gaps.set(top, { after: old?.after ?? top, before: ids[k - 1], dead: old?.dead ?? [] });
      this.#recount();
    }
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
    if (i < 0) {
      for (const g of this.#gaps.values()) if (id > g.after && (g.before == null || id < g.before)) g.dead.push(id);
      return false;
    }
    const g = this.#gaps.get(id);
    if (g) { // the gap stays above the next item, or goes with the last one
      this.#gaps.delete(id);
      if (i + 1 < this.#ids.length) this.#gaps.set(this.#ids[i + 1], g);
      this.#ids.splice(i, 1); this.#days.splice(i, 1); this.#hs.splice(i, 1);
      if (i < this.#first) this.#first--;
      if (i < this.#last) this.#last--;
      this.#recount();
      return true;
    }
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

  /** A gap's row is `h` px tall (measured once; every total is recounted). */
  measuredGap(h) {
    if (h === this.gapH) return;
    this.gapH = h;
    this.#recount();
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
      est: this.est, hasMore: this.#hasMore, next: this.#next, issued: this.#issued, changes: this.#changes, feed: this.#feed,
      gaps: [...this.#gaps], gapH: this.gapH, anchor };
  }

  /** Loads what `save` kept; the window is then empty until `view`. Returns the anchor. */
  restore(s) {
    this.reset();
    this.#ids = unrun(s.ids, 1); this.#days = unrun(s.days, 0); this.#hs = s.hs;
    Object.assign(this, { head: s.head, est: s.est, gapH: s.gapH ?? this.gapH });
    this.#hasMore = s.hasMore;
    this.#next = s.next ?? null;
    this.#issued = s.issued ?? null;
    this.#gaps = new Map(s.gaps);
    this.#changes = s.changes ?? 0;
    this.#feed = s.feed ?? null;
    this.#total = this.#offset(this.#ids.length);
    return s.anchor;
  }

  // A query by cursor, with the feed's name where the server gave one: the cursor is an id of it.
  #named(query) { return this.#feed ? { ...query, feed: this.#feed } : query; }

  // True when item i opens a day: a day header sits above it.
  #opens(i) { return i === 0 || this.#days[i] !== this.#days[i - 1]; }

  // Item i's px in the feed, its day header and the row of a gap above it included.
  #size(i) { return this.#hs[i] + (this.#opens(i) ? this.head : 0) + (this.#gaps.has(this.#ids[i]) ? this.gapH : 0); }

  // A gap above item `id` now.
  #setGap(id, g) {
    this.#gaps.set(id, { dead: [], ...g });
    this.#recount();
  }

  // Sizes changed beyond one item's (a gap came or went): the px are counted again.
  #recount() {
    this.#total = this.#offset(this.#ids.length);
    this.#top = this.#offset(this.#first);
  }

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

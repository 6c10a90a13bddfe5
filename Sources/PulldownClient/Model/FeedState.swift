/// The feed's items and fetches as a pure state machine: the twin of the page's `feed-state.js`
/// (its paging, refresh and feed-name rules, held to the same cases; a SwiftUI `List` or a
/// `UITableView` does the windowing the page does by hand).
///
/// It says what to fetch and is told what arrived; it never fetches. One fetch at a time: a page
/// and a refresh never run at once (``busy``), and an item is never held twice. Pages go on the
/// end by cursor (the page's own, so a short or empty page is never taken for the end); a
/// refresh goes on top, and a refresh with a gap starts over from its items.
///
/// Items change under the reader: an edit replaces the item held, a deletion takes it out.
/// ``changes`` is the point of the server's one sequence (inserts, edits and deletions) the
/// items reflect: a refresh sends it and applies the changes it answers.
/// Once the server names the feed, every page asked for names it too; an answer of another feed
/// means the feed started over (``reset()``), and ``generation`` tells answers to requests made
/// before that apart.
public struct FeedState: Sendable, Hashable {
    /// What a fetch is running.
    public enum Fetch: Sendable, Hashable {
        case page
        case refresh
    }

    /// What the row under the feed shows.
    public enum End: Sendable, Hashable {
        /// More to come, none asked for yet.
        case more
        /// A page is being fetched: a spinner or skeleton rows.
        case loading
        /// The last page failed: "Couldn't load more items." and a Try again.
        case failed
        /// A feed without any item: "No items yet".
        case empty
        /// After the last page: "No more items".
        case end
    }

    /// Loaded items, newest first; ids strictly descend.
    public private(set) var items: [Item] = []
    /// What fetch is running, if any: the one place that says so.
    public private(set) var busy: Fetch?
    /// The feed's name as the server's answers give it; nil until one does.
    public private(set) var feed: FeedID?
    /// Moves at each ``reset()``: an answer to a request made before it moved is not for this feed.
    public private(set) var generation = 0
    /// Load the next page when a row this close to the end appears.
    public let prefetch: Int
    /// The point of the server's sequence the items reflect (the first page's, a refresh's
    /// `changes`, or a stream event's id), 0 until an answer says: what a refresh goes on from.
    public private(set) var changes: Int64 = 0
    private var hasMore = true
    private var failed = false
    /// The next page's cursor as the last page gave it: its last place, a deleted item's or not.
    private var next: Int64?

    public init(prefetch: Int = 5) {
        self.prefetch = prefetch
    }

    /// The newest id loaded, 0 while there is none: the cursor for what is newer.
    public var newest: Int64 { items.first?.id ?? 0 }

    /// Where item `id` is (0: the newest), by binary search; nil when not loaded.
    public func index(of id: Int64) -> Int? {
        var low = 0, high = items.count - 1
        while low <= high {
            let middle = (low + high) / 2, value = items[middle].id
            if value == id { return middle }
            if value > id { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// What the row under the feed shows.
    public var end: End {
        if busy == .page { return .loading }
        if failed { return .failed }
        return hasMore ? .more : items.isEmpty ? .empty : .end
    }

    /// Whether an answer that names feed `id` is of the feed loaded: yes where either does not say
    /// (a server without feed names; nothing named yet, and then the feed is `id` from now on).
    public mutating func belongs(_ id: FeedID?) -> Bool {
        if feed == nil { feed = id }
        return id == nil || id == feed
    }

    /// Forgets everything, the feed's name too: start over from the newest page. Answers to what
    /// was asked before are stale.
    public mutating func reset() {
        generation += 1
        feed = nil
        clear()
    }

    // Forgets the items, in the same feed.
    private mutating func clear() {
        items = []
        hasMore = true
        next = nil
        changes = 0
        failed = false
        busy = nil
    }

    /// Everything held reflects the server's sequence up to `changes`: the first page says so, a
    /// refresh, and each stream event, which come in order. (A later page does not: the items
    /// loaded before it may have changed since.)
    public mutating func saw(_ changes: Int64?) {
        if let changes, changes > self.changes { self.changes = changes }
    }

    // MARK: Pages

    /// The query for the next (older) page, marking it in flight; nil when none may start.
    public mutating func nextPage() -> PageQuery? {
        guard busy == nil, hasMore, !failed else { return nil }
        busy = .page
        let before = [next, items.last?.id].compactMap { $0 }.min()
        return before.map { .before($0, feed: feed) } ?? .newest
    }

    /// Row `id` appeared: the next page's query when it is near the end and one may start.
    public mutating func appeared(_ id: Int64) -> PageQuery? {
        guard let at = index(of: id), at >= items.count - prefetch else { return nil }
        return nextPage()
    }

    /// A page arrived: older items go at the end, any already loaded is skipped. `next` is the
    /// page's own cursor for the one after it (``Page/nextCursor``: a page whose items were all
    /// deleted has no item to go on from); without it, the last item's id. A page with fewer
    /// items than asked is not the end: `hasMore` says.
    public mutating func add(_ page: [Item], hasMore: Bool, next: Int64? = nil) {
        for item in page where items.last.map({ item.id < $0.id }) ?? true {
            items.append(item)
        }
        if let next { self.next = min(self.next ?? next, next) }
        self.hasMore = hasMore
        busy = nil
    }

    /// The page failed: none is asked again until ``retryPage()``.
    public mutating func pageFailed() {
        busy = nil
        failed = true
    }

    /// The reader asked to try a failed page again: its query, as ``nextPage()`` gives it.
    public mutating func retryPage() -> PageQuery? {
        failed = false
        return nextPage()
    }

    // MARK: Refreshes

    /// The `after` of a refresh, marking it in flight; nil while a page loads.
    public mutating func beginRefresh() -> Int64? {
        guard busy == nil else { return nil }
        busy = .refresh
        return newest
    }

    /// A refresh answered: a gap starts over from its items, else its edits and deletions
    /// (`changed`) are applied and its items go on top; the feed then reflects `changes`.
    /// Returns how many were added.
    public mutating func refreshed(_ fresh: [Item], gap: Bool, changed: [Change] = [], changes: Int64? = nil) -> Int {
        if gap { clear() } else { for change in changed { apply(change) } }
        saw(changes)
        let newer = fresh.filter { $0.id > newest }
        items.insert(contentsOf: newer, at: 0)
        busy = nil
        return newer.count
    }

    /// The refresh failed: what is loaded stays.
    public mutating func refreshFailed() {
        busy = nil
    }

    // MARK: Items that change

    /// An edit or deletion (a refresh's, or the stream's): the item held is replaced, or leaves.
    /// Returns whether the feed held it.
    @discardableResult
    public mutating func apply(_ change: Change) -> Bool {
        switch change {
        case .updated(let item, _): updated(item)
        case .deleted(let id, _): deleted(id)
        }
    }

    /// Item `item.id` was edited: it is replaced where it is held, in its place. Returns whether
    /// the feed holds it.
    @discardableResult
    public mutating func updated(_ item: Item) -> Bool {
        guard let at = index(of: item.id) else { return false }
        items[at] = item
        return true
    }

    /// Item `id` was deleted: it leaves the feed, the others keep their order. Returns whether
    /// the feed held it.
    @discardableResult
    public mutating func deleted(_ id: Int64) -> Bool {
        guard let at = index(of: id) else { return false }
        items.remove(at: at)
        return true
    }
}

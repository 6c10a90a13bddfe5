import PulldownFeed
import PulldownHTTP
import Synchronization

/// What HTTP may say about keeping a page or an item, and which answers are kept ready in
/// memory: the one place that decides.
///
/// `immutable` is a promise for any cache, across restarts and stores, and an item can be edited
/// or deleted at any time, so no answer that holds an item makes it: pages and items are
/// `no-cache` with a strong ETag, and a revalidation is a 304. What can never change again is a
/// deleted item's 410 under a URL that names its feed (`feed=`, checked by
/// `Feed.reading(inFeed:_:)`): a deletion is for good, and a feed's identity is never handed
/// out twice. Pictures are immutable too, under names that fix their bytes (`PictureRoutes`).
///
/// What is kept in memory is whatever stays the same until an edit or a deletion touches it: a
/// page whose places can never change, and an item, asked for in a named feed. Within one feed
/// ids become visible strictly in commit order (on SQLite and on PostgreSQL) and a deleted item
/// keeps its place, so the places of these never change:
/// - `before=X`: the places below X, once X - 1 is committed, i.e. X ≤ newest + 1.
/// - `after=X`: the `limit` places just above X, once all of them exist and even newer ones do
///   too (`hasMore`), since `hasMore` is part of the page.
/// - `around=X`: once places newer than the page exist (its newest place and beyond), and at
///   the oldest end of the feed.
/// - `after=A&before=B`: as `before=B`, the places of the range it covers.
/// - an item (`/api/items/{id}`).
/// Each is kept with the ids it covers and dropped when a change touches one of them
/// (`ValidatedPageCache.drop(_:)`), so it is served from memory, 304 included, until then. The
/// newest page, and a page that can still grow, are built again after every insert or change.
enum PageCaching {
    // No `public`: max-age already lets every cache keep it; `public` would only add answers to
    // requests that carry Authorization (RFC 9111, 3.5), a header this API never asks for.
    static let immutable = "max-age=31536000, immutable"
    
    /// The ids whose changes alter the page `query` was answered with, if its places can never
    /// change (see above) and its URL names its feed; nil when it is not kept.
    static func keptRange(_ query: ItemsQuery, page: ItemPage, newestID: Int64?) -> ClosedRange<Int64>? {
        guard query.feed != nil else { return nil }
        switch query.cursor {
        case .newest:
            return nil
        case .before(let id):
            guard id - 1 <= (newestID ?? 0) else { return nil }
            // No place below X at all: nothing can ever change it, and X itself is no item of it.
            guard let edge = page.edge else { return id...id }
            return edge...(id - 1)
        case .after(let id):
            guard page.hasMore, let edge = page.edge else { return nil }
            return (id + 1)...edge
        case .around:
            // Fixed once newer places exist past it (as a full `after=` page); at the oldest
            // end nothing is ever added. The anchor, if a place, lies within it.
            guard case .around(_, _, let newer?) = page.form, let edge = page.edge else { return nil }
            return edge...newer
        case .between(let after, let before):
            // As `before=`: no place below `before` can appear once `before - 1` is committed.
            guard before - 1 <= (newestID ?? 0) else { return nil }
            guard case .between(_, let done) = page.form else { return nil }
            let low = done ? after + 1 : page.edge ?? after + 1
            return low <= before - 1 ? low...(before - 1) : before...before
        }
    }

    /// What the 410 of a deleted item asked for in the feed `named` (nil: none) may promise.
    static func gone(named: FeedID?) -> String {
        named != nil ? immutable : CacheControl.noCache
    }
}

/// Pages and items as ready responses, the most recently used within a budget of bytes, so a
/// hot deep page costs what the newest page costs, and its 304 too. Each is kept with the ids
/// it covers, and dropped when an edit or a deletion touches one (`drop(_:)`, which runs before
/// the feed's sequence says the change happened). Kept by the feed their URL names (a reset
/// leaves the old feed's to age out) and by the base URL their links begin with.
final class ValidatedPageCache: Sendable {
    struct Key: Hashable {
        enum What: Hashable {
            case page(ItemsQuery.Cursor, limit: Int)
            case item(Int64)
        }

        let feed: FeedID
        let what: What
        /// The base URL its links and pictures begin with (`BaseURL`).
        let base: BaseURL.Key

        init?(_ query: ItemsQuery, base: BaseURL.Key) {
            guard let feed = query.feed else { return nil }
            self.feed = feed
            what = .page(query.cursor, limit: query.limit)
            self.base = base
        }

        init(item id: Int64, in feed: FeedID, base: BaseURL.Key) {
            self.feed = feed
            what = .item(id)
            self.base = base
        }
    }

    private struct Entry {
        let response: HTTPResponse
        let ids: ClosedRange<Int64>
    }

    private struct State {
        var entries: LRUCache<Key, Entry>
        /// Moves with every drop: an answer built while one happened may hold what it dropped.
        var epoch: UInt64 = 0
    }

    private let state: Mutex<State>

    /// `bytes` of bodies at most; 0 keeps nothing.
    init(bytes: Int) {
        state = Mutex(State(entries: LRUCache(capacity: bytes)))
    }

    func response(for key: Key) -> HTTPResponse? {
        state.withLock { $0.entries.value(for: key)?.response }
    }

    /// Read before reading what an answer is built from, and handed to `keep`.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps `response`, prepared once, as the answer for `key` until a change touches `ids`,
    /// unless a drop happened since `epoch` was read; returns the prepared response either way.
    func keep(_ response: HTTPResponse, for key: Key, ids: ClosedRange<Int64>, builtAt epoch: UInt64) -> HTTPResponse {
        guard state.withLock({ $0.entries.capacity }) > 0 else { return response }
        let prepared = HTTPResponse(prepared: PreparedResponse(response))
        // A prepared libmicrohttpd response holds its own copy of the body too.
        let cost = 2 * response.body.count + 512
        state.withLock { state in
            guard state.epoch == epoch else { return }
            state.entries.insert(Entry(response: prepared, ids: ids), for: key, cost: cost)
        }
        return prepared
    }

    /// Drops every answer that covers one of `ids`; nil drops them all.
    func drop(_ ids: [Int64]?) {
        state.withLock { state in
            state.epoch &+= 1
            guard let ids else { return state.entries.removeAll { _, _ in true } }
            state.entries.removeAll { _, entry in ids.contains { entry.ids.contains($0) } }
        }
    }
}

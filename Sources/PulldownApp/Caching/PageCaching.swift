import PulldownFeed
import PulldownHTTP
import Synchronization

/// What HTTP may say about keeping a page or an item, and the pages kept in memory because they
/// can never change: the one place that decides which answers are `immutable`.
///
/// `immutable` is a promise for any cache, across restarts and stores, so only an answer whose URL
/// names the feed it was read from (`feed=`, checked by `Feed.reading(inFeed:_:)`) may make it:
/// item ids start again in another store (a store in memory, a deleted file) and a reset empties
/// the pages they named, but a feed's identity is never handed out twice. The same request
/// without `feed=` is answered too, revalidated (`no-cache`) with its ETag.
///
/// Within one feed, items are never edited or deleted, and ids become visible strictly in commit
/// order (on SQLite and on PostgreSQL), so once every item a page covers is committed, the page
/// is fixed forever:
/// - `before=X`: the items below X. Fixed once X - 1 is committed, i.e. X ≤ newest + 1.
/// - `after=X`: the `limit` items just above X. Fixed once all `limit` of them exist and even
///   newer ones do too (`hasMore`), since `hasMore` is part of the page.
/// - an item (`/api/items/{id}`), once it exists.
/// The newest page, and a page that can still grow, may change with the next insert. Should
/// items become editable or deletable, these rules are what must change.
enum PageCaching {
    // No `public`: max-age already lets every cache keep it; `public` would only add answers to
    // requests that carry Authorization (RFC 9111, 3.5), a header this API never asks for.
    static let immutable = "max-age=31536000, immutable"
    static let revalidate = "no-cache"

    /// Whether the page `query` was answered with can never change (see above).
    static func isImmutable(_ query: ItemsQuery, page: ItemPage, newestID: Int64?) -> Bool {
        guard query.feed != nil else { return false }
        switch query.cursor {
        case .newest:
            return false
        case .before(let id):
            return id - 1 <= (newestID ?? 0)
        case .after:
            return page.items.count == query.limit && page.hasMore
        }
    }

    /// Whether an item that exists, asked for in the feed `named` (nil: none named), can never
    /// change under its URL.
    static func isItemImmutable(named: FeedID?) -> Bool {
        named != nil
    }
}

/// Immutable pages as ready responses, the most recently used within a budget of bytes, so a
/// hot deep page costs what the newest page costs. Kept by the feed their URL names (a reset
/// leaves the old feed's pages to age out) and by the base URL their links begin with.
final class ImmutablePageCache: Sendable {
    struct Key: Hashable {
        let feed: FeedID
        let cursor: ItemsQuery.Cursor
        let limit: Int
        let base: BaseURL.Key

        init?(_ query: ItemsQuery, base: BaseURL.Key) {
            guard let feed = query.feed else { return nil }
            self.feed = feed
            cursor = query.cursor
            limit = query.limit
            self.base = base
        }
    }

    private let cache: Mutex<LRUCache<Key, HTTPResponse>>

    /// `bytes` of page bodies at most; 0 keeps nothing.
    init(bytes: Int) {
        cache = Mutex(LRUCache(capacity: bytes))
    }

    func response(for query: ItemsQuery, base: BaseURL.Key) -> HTTPResponse? {
        guard let key = Key(query, base: base) else { return nil }
        return cache.withLock { $0.value(for: key) }
    }

    /// Keeps `response`, prepared once, and returns that prepared response.
    func keep(_ response: HTTPResponse, for query: ItemsQuery, base: BaseURL.Key) -> HTTPResponse {
        guard let key = Key(query, base: base), cache.withLock({ $0.capacity }) > 0 else { return response }
        let prepared = HTTPResponse(prepared: PreparedResponse(response))
        // A prepared libmicrohttpd response holds its own copy of the body too.
        let cost = 2 * response.body.count + 512
        cache.withLock { $0.insert(prepared, for: key, cost: cost) }
        return prepared
    }

    var totalBytes: Int { cache.withLock { $0.totalCost } }
}

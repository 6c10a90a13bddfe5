import PulldownFeed
import PulldownHTTP
import Synchronization

/// What HTTP may say about keeping a page, and the pages kept in memory because they can never
/// change.
///
/// Items are never edited or deleted, and ids become visible strictly in commit order (on SQLite
/// and on PostgreSQL), so once every item a page covers is committed, the page is fixed forever:
/// - `before=X`: the items below X. Fixed once X - 1 is committed, i.e. X ≤ newest + 1.
/// - `after=X`: the `limit` items just above X. Fixed once all `limit` of them exist and even
///   newer ones do too (`hasMore`), since `hasMore` is part of the page.
/// The newest page, and a page that can still grow, may change with the next insert.
enum PageCaching {
    // No `public`: max-age already lets every cache keep it; `public` would only add answers to
    // requests that carry Authorization (RFC 9111, 3.5), a header this API never asks for.
    static let immutable = "max-age=31536000, immutable"
    static let revalidate = "no-cache"

    static func isImmutable(_ query: ItemsQuery, page: ItemPage, newestID: Int64?) -> Bool {
        switch query.cursor {
        case .newest:
            return false
        case .before(let id):
            return id - 1 <= (newestID ?? 0)
        case .after:
            return page.items.count == query.limit && page.hasMore
        }
    }
}

/// Immutable pages as ready responses, the most recently used within a budget of bytes, so a
/// hot deep page costs what the newest page costs.
///
/// Each is kept under the feed's generation it was read at (`Feed.generation`, read before the
/// page), so a reset leaves every page of the old feed behind, never to be answered again (they
/// age out as others come in).
final class ImmutablePageCache: Sendable {
    struct Key: Hashable {
        let cursor: ItemsQuery.Cursor
        let limit: Int
        let generation: UInt64

        init(_ query: ItemsQuery, generation: UInt64) {
            cursor = query.cursor
            limit = query.limit
            self.generation = generation
        }
    }

    private let cache: Mutex<LRUCache<Key, HTTPResponse>>

    /// `bytes` of page bodies at most; 0 keeps nothing.
    init(bytes: Int) {
        cache = Mutex(LRUCache(capacity: bytes))
    }

    func response(for query: ItemsQuery, generation: UInt64) -> HTTPResponse? {
        cache.withLock { $0.value(for: Key(query, generation: generation)) }
    }

    /// Keeps `response`, read at `generation`, prepared once, and returns that prepared response.
    func keep(_ response: HTTPResponse, for query: ItemsQuery, generation: UInt64) -> HTTPResponse {
        guard cache.withLock({ $0.capacity }) > 0 else { return response }
        let prepared = HTTPResponse(prepared: PreparedResponse(response))
        // A prepared libmicrohttpd response holds its own copy of the body too.
        let cost = 2 * response.body.count + 512
        cache.withLock { $0.insert(prepared, for: Key(query, generation: generation), cost: cost) }
        return prepared
    }

    var totalBytes: Int { cache.withLock { $0.totalCost } }
}

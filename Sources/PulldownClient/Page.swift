import Foundation

/// Which page of the feed to ask for: a keyset cursor, a size and the feed the cursor came from.
///
/// Pages are newest first whichever way they walk. Queries are values: build them with the
/// static functions, or take them from ``FeedState``.
public struct PageQuery: Sendable, Hashable {
    /// Where the page starts.
    public enum Cursor: Sendable, Hashable {
        /// The newest items.
        case newest
        /// The items older than this id (exclusive).
        case before(Int64)
        /// The items immediately newer than this id (exclusive); ``Page/hasMore`` then says that
        /// more than `limit` are newer.
        case after(Int64)
    }

    public var cursor: Cursor
    /// Items per page, 1 to 100; nil for the server's page size.
    public var limit: Int?
    /// The feed the cursor came from: a page of another feed is then a 410, never its items.
    public var feed: FeedID?

    public init(_ cursor: Cursor = .newest, limit: Int? = nil, feed: FeedID? = nil) {
        self.cursor = cursor
        self.limit = limit
        self.feed = feed
    }

    /// The newest page.
    public static let newest = PageQuery()

    /// The items older than `id`.
    public static func before(_ id: Int64, feed: FeedID? = nil, limit: Int? = nil) -> PageQuery {
        PageQuery(.before(id), limit: limit, feed: feed)
    }

    /// The items immediately newer than `id`.
    public static func after(_ id: Int64, feed: FeedID? = nil, limit: Int? = nil) -> PageQuery {
        PageQuery(.after(id), limit: limit, feed: feed)
    }

    /// The query string, in the order the server's own links use.
    var queryItems: [URLQueryItem] {
        var query: [URLQueryItem] = []
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        switch cursor {
        case .newest: break
        case .before(let id): query.append(URLQueryItem(name: "before", value: String(id)))
        case .after(let id): query.append(URLQueryItem(name: "after", value: String(id)))
        }
        if let feed { query.append(URLQueryItem(name: "feed", value: feed.rawValue)) }
        return query
    }
}

/// One page of items, newest first, and where the feed goes on from it.
public struct Page: Sendable, Hashable {
    public let items: [Item]
    /// The page size the server used.
    public let limit: Int
    /// Walking older: older items exist. Walking newer (`after`): more newer items exist than
    /// this page holds.
    public let hasMore: Bool
    /// The feed the items belong to.
    public let feed: FeedID?
    /// The next page in the same direction (the `Link` header's `rel="next"`, resolved against
    /// the URL asked), present only when ``hasMore``. It names the feed.
    public let next: URL?
    /// The page's validator: the client sends it back as `If-None-Match` the next time it asks
    /// for the same URL.
    public let etag: String?
    /// True when the server answered 304: the page is the one this client received before.
    public let notModified: Bool
}

/// What a refresh brings: the items newer than the baseline, and the session's new stamp.
public struct RefreshResult: Sendable, Hashable, Decodable {
    /// Newest first, at most the limit asked for.
    public let items: [Item]
    /// More items are newer than the baseline than were returned: what the client holds no longer
    /// joins these. Start over from them (as the page does), or fill the hole with `after` pages.
    public let gap: Bool
    /// The session's last successful refresh: this one. "Last updated on …" shows it.
    public let lastUpdated: Date
    /// The feed the items belong to.
    public let feed: FeedID?
}

/// What the server keeps for this client's session.
public struct SessionState: Sendable, Hashable, Decodable {
    /// The last successful refresh; nil before the first.
    public let lastUpdated: Date?
    /// The newest item id a refresh has given this session; nil before the first.
    public let lastSeenId: Int64?
    /// Successful refreshes.
    public let refreshCount: Int
}

/// A page's JSON, before the headers join it.
struct PageBody: Decodable {
    let items: [Item]
    let limit: Int
    let hasMore: Bool
    let feed: FeedID?
}

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
        /// The page that holds this id near its middle (`limit/2` newer, the rest from it down),
        /// with ``Page/previous`` (newer) and ``Page/next`` (older) both ways, and ``Page/anchor``
        /// saying whether the item is there. A deleted or unknown id answers the page where it
        /// would be.
        case around(Int64)
        /// Exactly the items strictly between two ids, newest first, at most `limit` a page:
        /// ``Page/next`` goes on inside the range until ``Page/rangeDone``. Fills a gap from its
        /// newer end.
        case between(after: Int64, before: Int64)
    }

    public var cursor: Cursor
    /// Items per page, 1 to 100; nil for the server's page size.
    public var limit: Int?
    /// The feed the cursor came from: a page of another feed is then a 410, never its items.
    public var feed: FeedID?
    /// Ask for the feed's live items counted (`Prefer: count=exact`): ``Page/totalCount``.
    /// Counting scans the feed, so ask only when a number is shown.
    public var count: Bool

    public init(_ cursor: Cursor = .newest, limit: Int? = nil, feed: FeedID? = nil, count: Bool = false) {
        self.cursor = cursor
        self.limit = limit
        self.feed = feed
        self.count = count
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

    /// The page around `id`.
    public static func around(_ id: Int64, feed: FeedID? = nil, limit: Int? = nil) -> PageQuery {
        PageQuery(.around(id), limit: limit, feed: feed)
    }

    /// The items strictly between `after` and `before`.
    public static func between(after: Int64, before: Int64, feed: FeedID? = nil, limit: Int? = nil) -> PageQuery {
        PageQuery(.between(after: after, before: before), limit: limit, feed: feed)
    }

    /// The query string, in the order the server's own links use.
    var queryItems: [URLQueryItem] {
        var query: [URLQueryItem] = []
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        switch cursor {
        case .newest: break
        case .before(let id): query.append(URLQueryItem(name: "before", value: String(id)))
        case .after(let id): query.append(URLQueryItem(name: "after", value: String(id)))
        case .around(let id): query.append(URLQueryItem(name: "around", value: String(id)))
        case .between(let after, let before):
            query.append(URLQueryItem(name: "after", value: String(after)))
            query.append(URLQueryItem(name: "before", value: String(before)))
        }
        if let feed { query.append(URLQueryItem(name: "feed", value: feed.rawValue)) }
        return query
    }
}

/// One page of items, newest first, and where the feed goes on from it.
///
/// A page may hold fewer items than ``limit``, even none, while ``hasMore`` is true (items
/// deleted in its places, or the server's short pages): go on from ``next``, never stop at a
/// short page.
public struct Page: Sendable, Hashable {
    /// Whether the item a page around an id was asked for is in it.
    public struct Anchor: Sendable, Hashable, Decodable {
        public let id: Int64
        /// False: deleted or unknown; the page is where it would be.
        public let found: Bool

        public init(id: Int64, found: Bool) {
            self.id = id
            self.found = found
        }
    }

    public let items: [Item]
    /// The page size the server honoured: the `limit` asked for, or its own.
    public let limit: Int
    /// Walking older: older items exist. Walking newer (`after`): more newer items exist than
    /// this page holds. In a range: whether the feed goes on below it.
    public let hasMore: Bool
    /// The feed the items belong to.
    public let feed: FeedID?
    /// The next page in the same direction (the `Link` header's `rel="next"`, resolved against
    /// the URL asked): older, or newer walking `after`, or on inside a range. Absent at the end
    /// (or when the range is done). It names the feed.
    public let next: URL?
    /// The cursor ``next`` goes on from: this page's last place, a deleted item's or not (so a
    /// page whose items were all deleted still says where to go on). nil at the end.
    public let nextCursor: Int64?
    /// A page around an item: the newer page (`rel="prev"`), absent when nothing is newer.
    public let previous: URL?
    /// A page around an item: the cursor ``previous`` walks up from.
    public let previousCursor: Int64?
    /// A page around an item: the item asked for, and whether it is here.
    public let anchor: Anchor?
    /// A page of a range (`between`): true once the range is filled. nil for other pages.
    public let rangeDone: Bool?
    /// The feed's live items, when the query asked for a count.
    public let totalCount: Int?
    /// The point of the server's sequence of inserts, edits and deletions this page reflects:
    /// a refresh sent it gets the edits and deletions after it.
    public let changes: Int64?
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
    /// The items edited and deleted since the `changes` sent (else since the session's last
    /// refresh), oldest first: replace the ones held, drop the ones gone. Empty with a gap.
    public let changed: [Change]
    /// The point of the server's sequence this answer reflects: the next refresh's `changes`.
    public let changes: Int64?

    public init(items: [Item], gap: Bool, lastUpdated: Date, feed: FeedID? = nil, changed: [Change] = [],
                changes: Int64? = nil) {
        self.items = items
        self.gap = gap
        self.lastUpdated = lastUpdated
        self.feed = feed
        self.changed = changed
        self.changes = changes
    }

    private enum CodingKeys: String, CodingKey { case items, gap, lastUpdated, feed, changed, changes }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        items = try members.decode([Item].self, forKey: .items)
        gap = try members.decode(Bool.self, forKey: .gap)
        lastUpdated = try members.decode(Date.self, forKey: .lastUpdated)
        feed = try members.decodeIfPresent(FeedID.self, forKey: .feed)
        changed = try members.decodeIfPresent([Change].self, forKey: .changed) ?? []
        changes = try members.decodeIfPresent(Int64.self, forKey: .changes)
    }
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
    let next: Int64?
    let prev: Int64?
    let anchor: Page.Anchor?
    let rangeDone: Bool?
    let changes: Int64?
}

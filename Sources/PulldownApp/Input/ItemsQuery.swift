import PulldownFeed
import PulldownHTTP

/// The validated parameters of `GET /api/items`.
struct ItemsQuery: Equatable {
    enum Cursor: Hashable {
        case newest
        case before(Int64)
        case after(Int64)
        /// The page that holds this id near its middle (`around=`).
        case around(Int64)
        /// The places strictly between two cursors (`after=` with `before=`); none when
        /// `after` is not below `before`.
        case between(after: Int64, before: Int64)
    }

    let limit: Int
    let cursor: Cursor
    /// The feed the client's cursor came from (`feed=`), nil when it named none.
    let feed: FeedID?
    /// The live items are counted (`Prefer: count=exact`, or `count=exact`).
    var count = false
    /// When the server issued the cursor (`issued=`, Unix seconds), nil for a bare one.
    var issued: Int64?

    init(limit: Int, cursor: Cursor, feed: FeedID? = nil, count: Bool = false, issued: Int64? = nil) {
        self.limit = limit
        self.cursor = cursor
        self.feed = feed
        self.count = count
        self.issued = issued
    }

    /// Reads the query (and `Prefer`, for counting), collecting every problem so that one 400
    /// names them all.
    static func parse(_ query: QueryParameters, prefer: String? = nil, defaultLimit: Int) throws(Problem) -> ItemsQuery {
        var reader = QueryReader(query)
        let limit = reader.integer("limit", in: 1...Int64(Feed.maxPageSize)).map(Int.init)
        let before = reader.integer("before", in: 1...Int64.max)
        let after = reader.integer("after", in: 0...Int64.max)
        let around = reader.integer("around", in: 1...Int64.max)
        if query.first("around") != nil && (query.first("before") != nil || query.first("after") != nil) {
            reader.invalid.add("around", "cannot be combined with before or after")
        }
        let count = reader.value("count")
        if let count, count != "exact" { reader.invalid.add("count", "must be exact") }
        let issued = reader.integer("issued", in: 0...Int64.max)
        let feed = reader.feedID()
        try reader.invalid.check("The query has invalid parameters.")
        let cursor: Cursor = switch (before, after, around) {
        case (let before?, let after?, _): .between(after: after, before: before)
        case (let before?, nil, _): .before(before)
        case (nil, let after?, _): .after(after)
        case (nil, nil, let around?): .around(around)
        case (nil, nil, nil): .newest
        }
        return ItemsQuery(limit: limit ?? defaultLimit, cursor: cursor, feed: feed,
                          count: count != nil || prefersExactCount(prefer), issued: issued)
    }

    /// Whether a `Prefer` header (RFC 7240) asks for `count=exact` among its preferences.
    static func prefersExactCount(_ prefer: String?) -> Bool {
        guard let prefer else { return false }
        return prefer.split(separator: ",").contains { preference in
            preference.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() == "count=exact" } ?? false
        }
    }
}

extension QueryReader {
    /// The `feed` parameter: a feed id as the server hands them out, in links and in `feed`.
    mutating func feedID() -> FeedID? {
        guard let text = value("feed") else { return nil }
        guard let id = FeedID(text) else {
            invalid.add("feed", "must be a feed id as the server gives it (16 lowercase hex digits)")
            return nil
        }
        return id
    }
}

import PulldownFeed
import PulldownHTTP

/// The validated parameters of `GET /api/items`.
struct ItemsQuery: Equatable {
    enum Cursor: Hashable {
        case newest
        case before(Int64)
        case after(Int64)
    }

    let limit: Int
    let cursor: Cursor
    /// The feed the client's cursor came from (`feed=`), nil when it named none.
    let feed: FeedID?

    init(limit: Int, cursor: Cursor, feed: FeedID? = nil) {
        self.limit = limit
        self.cursor = cursor
        self.feed = feed
    }

    /// Reads the query, collecting every problem so that one 400 names them all.
    static func parse(_ query: QueryParameters, defaultLimit: Int) throws(Problem) -> ItemsQuery {
        var reader = QueryReader(query)
        let limit = reader.integer("limit", in: 1...Int64(Feed.maxPageSize)).map(Int.init)
        let before = reader.integer("before", in: 1...Int64.max)
        let after = reader.integer("after", in: 0...Int64.max)
        if query.first("before") != nil && query.first("after") != nil {
            reader.invalid.add("after", "cannot be combined with before")
        }
        let feed = reader.feedID()
        try reader.invalid.check("The query has invalid parameters.")
        let cursor: Cursor = before.map { .before($0) } ?? after.map { .after($0) } ?? .newest
        return ItemsQuery(limit: limit ?? defaultLimit, cursor: cursor, feed: feed)
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

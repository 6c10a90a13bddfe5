import Foundation

/// One entry of the feed. Items never change once stored.
public struct Item: Sendable, Equatable {
    /// Grows with every insert and is never reused, so it doubles as the keyset cursor.
    public let id: Int64
    public let title: String
    public let body: String
    public let author: String
    /// UTC, whole seconds.
    public let createdAt: Date
    /// The submitter's own fields (`avatar`, `image`, `url`, anything else), as the compact text
    /// of one JSON object, already checked; empty when there are none. Written back as given.
    public let userFields: String

    public init(id: Int64, title: String, body: String, author: String, createdAt: Date, userFields: String = "") {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.createdAt = createdAt
        self.userFields = userFields
    }
}

/// What a client submits to add an item; checked by `Feed.addItem(_:)`.
public struct NewItem: Sendable {
    public var title: String
    public var body: String
    /// `nil` or blank is stored as "Anonymous".
    public var author: String?
    /// As `Item.userFields`: checked where the JSON was parsed, stored as given.
    public var userFields: String

    public init(title: String, body: String, author: String? = nil, userFields: String = "") {
        self.title = title
        self.body = body
        self.author = author
        self.userFields = userFields
    }
}

/// A keyset page: the `limit` items next to a cursor on one side of it, newest first.
public struct ItemPage: Sendable, Equatable {
    /// Which side of its cursor a page was read on.
    public enum Direction: Sendable, Equatable {
        /// Below the cursor (`Feed.page(before:)`, the newest page too): towards older items.
        case older
        /// Above the cursor (`Feed.page(after:)`): towards newer items.
        case newer
    }

    /// Newest first.
    public let items: [Item]
    public let direction: Direction
    /// More items lie beyond this page in `direction`: the walk goes on (the API's `hasMore`).
    public let hasMore: Bool

    public init(items: [Item], direction: Direction, hasMore: Bool) {
        self.items = items
        self.direction = direction
        self.hasMore = hasMore
    }
}

/// The newest items above a cursor a client holds, newest first, at most a limit.
public struct LatestItems: Sendable, Equatable {
    public let items: [Item]
    /// More items are newer than the cursor than were returned: the client has a hole to fill
    /// (refresh), as in `RefreshResult`.
    public let gap: Bool

    public init(items: [Item], gap: Bool) {
        self.items = items
        self.gap = gap
    }
}

/// The answer to a pull-to-refresh.
public struct RefreshResult: Sendable, Equatable {
    /// Newest first.
    public let items: [Item]
    /// More items are newer than the baseline than were returned: the client has a hole to fill.
    public let gap: Bool
    /// The session's last successful refresh, as stored.
    public let lastUpdated: Date
    /// The feed the items belong to (`FeedID`).
    public let feedID: FeedID

    public init(items: [Item], gap: Bool, lastUpdated: Date, feedID: FeedID) {
        self.items = items
        self.gap = gap
        self.lastUpdated = lastUpdated
        self.feedID = feedID
    }
}

/// What the server remembers about one browser session.
public struct SessionState: Sendable, Equatable {
    /// Time of the last successful refresh.
    public let lastUpdated: Date?
    /// Newest item id the session has been shown by a refresh.
    public let lastSeenID: Int64?
    public let refreshCount: Int

    public init(lastUpdated: Date?, lastSeenID: Int64?, refreshCount: Int) {
        self.lastUpdated = lastUpdated
        self.lastSeenID = lastSeenID
        self.refreshCount = refreshCount
    }
}

import Foundation

/// One entry of the feed. An item keeps its id and its place in the feed for life; its fields
/// change by edits (each one a new `version`), and a deletion leaves a tombstone in its place.
public struct Item: Sendable, Equatable {
    /// Grows with every insert and is never reused, so it doubles as the keyset cursor. Ids are
    /// drawn from the feed's one sequence (`Change.sequence`), so an id is also the sequence
    /// number of the item's insert.
    public let id: Int64
    public let title: String
    public let body: String
    public let author: String
    /// UTC, whole seconds.
    public let createdAt: Date
    /// The submitter's own fields (`avatar`, `image`, `url`, anything else), as the compact text
    /// of one JSON object, already checked; empty when there are none. Written back as given.
    public let userFields: String
    /// 1 when created, one more with every edit.
    public let version: Int64
    /// UTC, whole seconds, of the last edit; nil until the item is edited.
    public let editedAt: Date?

    public init(id: Int64, title: String, body: String, author: String, createdAt: Date, userFields: String = "",
                version: Int64 = 1, editedAt: Date? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.createdAt = createdAt
        self.userFields = userFields
        self.version = version
        self.editedAt = editedAt
    }
}

/// What a client submits to add an item (checked by `Feed.addItem(_:)`), and an item's fields
/// after an edit (`ItemChange.edit`).
public struct NewItem: Sendable, Equatable {
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

/// A keyset page: the `limit` places next to a cursor on one side of it, newest first, and the
/// items in them. A deleted item's place stays (a tombstone) but is not shown, so a page may hold
/// fewer than `limit` items, even none, while `hasMore` is true: its places never move, which is
/// what lets a page be validated from memory (`PageCaching`).
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
    /// The last place of the page in `direction` (the oldest for `.older`, the newest for
    /// `.newer`), a deleted item's or not: the cursor of the next page. nil for an empty range.
    public let edge: Int64?

    /// What a page around an item or within a range says beyond a plain page's fields.
    public let form: Form

    /// The forms of a page beyond a keyset page on one side of a cursor (`Feed+Paging`).
    public enum Form: Sendable, Equatable {
        case plain
        /// Around `anchor` (`Feed.page(around:limit:)`), read `.older`: `edge` is its oldest
        /// place, `newer` its newest when newer places exist (the cursor to walk up from), and
        /// `found` whether the anchor is a live item on the page.
        case around(anchor: Int64, found: Bool, newer: Int64?)
        /// Strictly between `after` and a `before` (`Feed.page(after:before:limit:)`), read
        /// `.older`: `done` when every place of the range down to `after` is on the page
        /// (`hasMore` then says whether the feed goes on below the range).
        case between(after: Int64, done: Bool)
    }

    /// `edge` defaults to the last item's id in `direction`.
    public init(items: [Item], direction: Direction, hasMore: Bool, edge: Int64?? = nil, form: Form = .plain) {
        self.items = items
        self.direction = direction
        self.hasMore = hasMore
        self.edge = edge ?? (direction == .older ? items.last?.id : items.first?.id)
        self.form = form
    }
}

/// The newest items above a cursor a client holds, newest first, at most a limit: what live
/// events send, and a refresh's items (`RefreshResult.latest`).
public struct LatestItems: Sendable, Equatable {
    public let items: [Item]
    /// More items are newer than the cursor than were returned: the client has a hole to fill
    /// (refresh).
    public let gap: Bool

    public init(items: [Item], gap: Bool) {
        self.items = items
        self.gap = gap
    }

    /// From rows read newest first with a limit of `limit + 1`: the first `limit`, and a gap
    /// when there was one more.
    init(rows: [Item], limit: Int) {
        self.init(items: Array(rows.prefix(limit)), gap: rows.count > limit)
    }
}

/// The answer to a pull-to-refresh.
public struct RefreshResult: Sendable, Equatable {
    /// The newest items above the session's baseline; `gap` also when the client must start over
    /// from them (its changes are no longer all kept).
    public let latest: LatestItems
    /// Newest first.
    public var items: [Item] { latest.items }
    /// The client has a hole to fill.
    public var gap: Bool { latest.gap }
    /// The session's last successful refresh, as stored.
    public let lastUpdated: Date
    /// The feed the items belong to (`FeedID`).
    public let feedID: FeedID
    /// The edits and deletions since the session's last refresh (or the `changes` it sent),
    /// oldest first; empty when `gap` (the client starts over from `items`).
    public let changes: [Change]
    /// The feed's sequence this answer reflects: the session's next baseline for changes.
    public let sequence: Int64

    public init(items: [Item], gap: Bool, lastUpdated: Date, feedID: FeedID, changes: [Change] = [], sequence: Int64 = 0) {
        latest = LatestItems(items: items, gap: gap)
        self.lastUpdated = lastUpdated
        self.feedID = feedID
        self.changes = changes
        self.sequence = sequence
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

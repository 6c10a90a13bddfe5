/// An edit or a deletion, as the change log keeps it: the feed's one sequence orders inserts
/// (an item's id is its insert's number), edits and deletions together, so one number says how
/// far a client has seen all three (`Last-Event-ID`, `"changes"` in pages, `since=`).
///
/// The log keeps one entry an item, its latest change: an item edited twice since a client
/// last looked is one `updated` with its current state, under the second edit's number, and one
/// edited then deleted is one `deleted`. Inserts are not in it: `after=` pages bring them.
public struct Change: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The item as it is now.
        case updated(Item)
        /// The id of the item deleted.
        case deleted(Int64)
    }

    /// Its number in the feed's sequence.
    public let sequence: Int64
    public let kind: Kind

    public init(sequence: Int64, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }

    var itemID: Int64 {
        switch kind {
        case .updated(let item): item.id
        case .deleted(let id): id
        }
    }
}

/// The changes after a sequence number, oldest first (`Feed.changes(since:limit:)`).
public struct ChangeList: Sendable, Equatable {
    public let changes: [Change]
    /// More changes follow the last one listed.
    public let hasMore: Bool
    /// Where a client that applied these stands: the last one's number while `hasMore`, else
    /// the feed's sequence as read before them (or the last one's, if newer). The `since` of
    /// its next ask.
    public let sequence: Int64

    public init(changes: [Change], hasMore: Bool, sequence: Int64) {
        self.changes = changes
        self.hasMore = hasMore
        self.sequence = sequence
    }
}

/// What a caller asks of one item (`Feed.change(_:_:completion:)`). Each closure runs inside the
/// write transaction with the item as stored, so a check made there (a version the client
/// expects) cannot be overtaken by another change; what it throws is the answer, and nothing is
/// written.
public enum ItemChange: Sendable {
    /// The item's fields after the edit, checked as a post's are; nil when they stay as they are.
    case edit(@Sendable (Item) throws -> NewItem?)
    /// Deletes the item once `check` accepts it.
    case delete(check: @Sendable (Item) throws -> Void)
}

/// What a change did.
public enum ChangeOutcome: Sendable, Equatable {
    case changed(Change)
    /// An edit that left every field as it was: no new version, nothing logged.
    case unchanged(Item)
}

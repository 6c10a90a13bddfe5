/// An item about to be stored; the store assigns the id.
struct ItemDraft: Sendable, Equatable {
    let title: String
    let body: String
    let author: String
    /// Unix seconds, UTC.
    let createdAt: Int64
    /// As `Item.userFields`.
    var userFields: String = ""
}

/// One stored session, in storage units (Unix seconds).
struct SessionRecord: Sendable, Equatable {
    let lastUpdated: Double
    let lastSeenID: Int64
    let refreshCount: Int
    let lastActive: Double
    /// The feed's sequence its last refresh reflected: where its next one's changes start (0:
    /// none known).
    var lastSequence: Int64 = 0
}

/// One place of the feed as stored: an item, or the tombstone its deletion left (`item` nil).
struct ItemPlace: Sendable, Equatable {
    let id: Int64
    let item: Item?
}

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
}

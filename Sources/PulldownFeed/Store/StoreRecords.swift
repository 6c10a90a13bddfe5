/// An item about to be stored; the store assigns the id.
public struct ItemDraft: Sendable, Equatable {
    public let title: String
    public let body: String
    public let author: String
    /// Unix seconds, UTC.
    public let createdAt: Int64

    public init(title: String, body: String, author: String, createdAt: Int64) {
        self.title = title
        self.body = body
        self.author = author
        self.createdAt = createdAt
    }
}

/// One stored session, in storage units (Unix seconds).
public struct SessionRecord: Sendable, Equatable {
    public let lastUpdated: Double
    public let lastSeenID: Int64
    public let refreshCount: Int
    public let lastActive: Double

    public init(lastUpdated: Double, lastSeenID: Int64, refreshCount: Int, lastActive: Double) {
        self.lastUpdated = lastUpdated
        self.lastSeenID = lastSeenID
        self.refreshCount = refreshCount
        self.lastActive = lastActive
    }
}

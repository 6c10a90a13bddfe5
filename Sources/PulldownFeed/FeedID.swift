import Hashing

/// A feed's identity: random, created with the store and renewed by every reset of it.
///
/// Item ids are unique only within one store: a store in memory, a deleted file or a reset
/// starts them again, or empties the pages they named. So whatever is promised never to change
/// (an immutable page, an item) is named by the feed it belongs to as well, and a request that
/// names another feed is told so instead of being answered from this one.
public struct FeedID: Sendable, Hashable, CustomStringConvertible {
    /// The 8 random bytes, as kept in the store's meta table.
    let bytes: [UInt8]

    static let byteCount = 8

    /// The feed id as written in URLs and JSON: 16 lowercase hex digits.
    public let text: String

    /// The id as bytes kept in a store; nil when they are not an id.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
        self.text = Hex.encode(bytes)
    }

    /// The id as written (`text`); nil for anything else.
    public init?(_ text: String) {
        guard text.utf8.count == 2 * Self.byteCount, let bytes = Hex.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    static func random() -> FeedID {
        var rng = SystemRandomNumberGenerator()
        // `init(bytes:)` answers nil only for a length other than `byteCount`.
        return FeedID(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) })!
    }

    public var description: String { text }
}

extension FeedStoreReading {
    /// The identity the store keeps; nil when it has none yet.
    func storedFeedID() throws -> FeedID? {
        try metaBytes(MetaKey.feedID).flatMap(FeedID.init(bytes:))
    }
}

extension FeedStoreWriting {
    /// The identity the store keeps, created if it has none: insert-if-absent, then read back, so
    /// of several processes opening the store at once the first one's is kept.
    func feedIDCreatingIt() throws -> FeedID {
        try insertMetaIfAbsent(MetaKey.feedID, bytes: FeedID.random().bytes)
        if let kept = try storedFeedID() { return kept }
        // A damaged row: replaced, as the token secret is.
        let fresh = FeedID.random()
        try setMeta(MetaKey.feedID, bytes: fresh.bytes)
        return fresh
    }
}

/// The feed's revision and identity as the store last said them, handed to a request that
/// waited for the shared store's check (`Feed.withCurrentState`).
public struct FeedState: Sendable, Equatable {
    /// Moves with every insert, change and reset (see `Feed.withCurrentRevision`).
    public let revision: UInt64
    public let id: FeedID
    /// The sequence as applied (`Feed.sequence()`): what is read after reflects every change
    /// up to it.
    public let sequence: Int64
}

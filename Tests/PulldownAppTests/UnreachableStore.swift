@testable import PulldownFeed

/// Fails every call the way a lost database does, with a reason that names where it is.
final class UnreachableStore: FeedStore {
    let failure = StoreError.unavailable(location: "postgres://ada:***@db.internal.example:5432/feed",
                                         reason: "could not connect to server: Connection refused")
    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R { throw failure }
    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R { throw failure }
    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}
}

/// The same, shared with other processes: the newest page and `/` check it before trusting memory.
final class UnreachableSharedStore: FeedStore {
    let unreachable = UnreachableStore()
    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R { try unreachable.read(body) }
    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R { try unreachable.write(body) }
    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}
    var isShared: Bool { true }
}

/// Fails every call with an error no layer knows: a bug, not a lost database.
final class BrokenStore: FeedStore {
    struct Bug: Error, CustomStringConvertible {
        var description: String { "unexpected row shape at postgres://db.internal.example" }
    }
    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R { throw Bug() }
    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R { throw Bug() }
    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}
}

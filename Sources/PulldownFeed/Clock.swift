import Foundation

/// Where the feed gets "now" from. Implementations must be safe to call from any thread.
public protocol FeedClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: FeedClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to; thread-safe, for tests.
public final class ManualClock: FeedClock, @unchecked Sendable {
    // @unchecked: `current` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date) {
        current = start
    }

    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(seconds)
    }

    public func set(_ date: Date) {
        lock.lock()
        defer { lock.unlock() }
        current = date
    }
}

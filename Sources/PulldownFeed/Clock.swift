import Foundation
import Synchronization

/// Where the feed, and the API above it, get "now" from: item times, session stamps, when demo
/// items are due. The one clock they read; Dispatch only schedules (timers, delayed answers).
/// Implementations must be safe to call from any thread.
public protocol FeedClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: FeedClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to; thread-safe, for tests.
public final class ManualClock: FeedClock {
    private let current: Mutex<Date>

    public init(_ start: Date) {
        current = Mutex(start)
    }

    public func now() -> Date {
        current.withLock { $0 }
    }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}

import Foundation
import PulldownFeed
import Synchronization

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

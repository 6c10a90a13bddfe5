import Foundation

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

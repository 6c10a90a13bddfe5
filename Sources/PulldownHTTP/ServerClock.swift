import Foundation
import Synchronization

/// Where the server reads the time for the waits it decides on (the stop's grace period), so
/// that tests can move time themselves instead of sleeping through it.
public protocol ServerClock: Sendable {
    func now() -> ContinuousClock.Instant
}

/// The monotonic system clock.
public struct SystemServerClock: ServerClock {
    public init() {}
    public func now() -> ContinuousClock.Instant { .now }
}

/// A clock that moves only when told to.
public final class ManualServerClock: ServerClock {
    private let current = Mutex(ContinuousClock.now)

    public init() {}

    public func now() -> ContinuousClock.Instant { current.withLock { $0 } }

    public func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}

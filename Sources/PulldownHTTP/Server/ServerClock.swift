import Dispatch
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

import Dispatch
import Foundation
import Synchronization

/// Where the server reads the time for the waits it decides on (the stop's grace period, the
/// read deadlines' sweeps), so that tests can move time themselves instead of sleeping through it.
public protocol ServerClock: Sendable {
    func now() -> ContinuousClock.Instant
    /// Returns when `event` is signalled or `deadline` has come on this clock, whichever is
    /// first (or later: a caller checks again what it waits for).
    func wait(for event: DispatchSemaphore, until deadline: ContinuousClock.Instant)
}

public extension ServerClock {
    /// Waits in real time: right for any clock that runs as the system's does.
    func wait(for event: DispatchSemaphore, until deadline: ContinuousClock.Instant) {
        let left = now().duration(to: deadline)
        guard left > .zero else { return }
        _ = event.wait(timeout: .now() + .nanoseconds(Int(clamping: left.nanoseconds)))
    }
}

/// The monotonic system clock.
public struct SystemServerClock: ServerClock {
    public init() {}
    public func now() -> ContinuousClock.Instant { .now }
}

extension Duration {
    /// Whole nanoseconds, for the atomics and system calls that count in them.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}

import Dispatch
import PulldownHTTP
import Synchronization

/// A clock that moves only when told to, and tells when the server first read it (the stop
/// reads it as it begins), so a test can wait on that instead of polling.
public final class ManualServerClock: ServerClock {
    private let current = Mutex(Moment(now: ContinuousClock.now))
    private let read = Atomic<Bool>(false)
    private let firstRead = DispatchSemaphore(value: 0)

    public init() {}

    public func now() -> ContinuousClock.Instant {
        // Told after the value is taken, so a test that moves the clock once told moves it past
        // whatever the reader computed from this value.
        let value = current.withLock { $0.now }
        if !read.exchange(true, ordering: .relaxed) { firstRead.signal() }
        return value
    }

    /// Waits until something has read the clock; false if `timeout` passed first.
    public func waitForFirstRead(timeout: DispatchTime) -> Bool {
        firstRead.wait(timeout: timeout) == .success
    }

    /// Waits for `event` alone until the clock is moved to `deadline` (each move wakes the
    /// waiter, who checks again).
    public func wait(for event: DispatchSemaphore, until deadline: ContinuousClock.Instant) {
        // Checked and registered under the lock `advance` takes, so no move is missed.
        let passed = current.withLock { moment in
            if moment.now >= deadline { return true }
            moment.waiters.append(event)
            return false
        }
        if !passed { event.wait() }
    }

    public func advance(by duration: Duration) {
        let waiters = current.withLock { moment in
            moment.now += duration
            defer { moment.waiters = [] }
            return moment.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    private struct Moment {
        var now: ContinuousClock.Instant
        var waiters: [DispatchSemaphore] = []
    }
}

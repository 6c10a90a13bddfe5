import Dispatch
import PulldownHTTP
import Synchronization

/// A clock that moves only when told to, and tells when the server first read it (the stop
/// reads it as it begins), so a test can wait on that instead of polling.
public final class ManualServerClock: ServerClock {
    private let current = Mutex(ContinuousClock.now)
    private let read = Atomic<Bool>(false)
    private let firstRead = DispatchSemaphore(value: 0)

    public init() {}

    public func now() -> ContinuousClock.Instant {
        // Told after the value is taken, so a test that moves the clock once told moves it past
        // whatever the reader computed from this value.
        let value = current.withLock { $0 }
        if !read.exchange(true, ordering: .relaxed) { firstRead.signal() }
        return value
    }

    /// Waits until something has read the clock; false if `timeout` passed first.
    public func waitForFirstRead(timeout: DispatchTime) -> Bool {
        firstRead.wait(timeout: timeout) == .success
    }

    public func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}

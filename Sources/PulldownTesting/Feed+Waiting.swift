import Dispatch
import PulldownFeed
import Synchronization

extension Feed {
    /// `addItem(_:completion:)`, waited for, so a test reads the outcome in line. Never for a
    /// server thread: waiting for the writer there would stall every connection it serves.
    public func addItem(_ new: NewItem) throws -> Item {
        try waited { addItem(new, completion: $0) }
    }

    /// `addDemoItems(count:completion:)`, waited for, as `addItem(_:)` is.
    public func addDemoItems(count: Int) throws -> [Item] {
        try waited { addDemoItems(count: count, completion: $0) }
    }

    /// What `start` hands its completion, once it has.
    private func waited<T: Sendable>(_ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

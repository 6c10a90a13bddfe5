import Dispatch
import PulldownFeed
import Synchronization

extension Feed {
    /// `addItem(_:completion:)`, waited for, so a test reads the outcome in line. Never for a
    /// server thread: waiting for the writer there would stall every connection it serves.
    public func addItem(_ new: NewItem) throws -> Item {
        let outcome = Mutex<Result<Item, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        addItem(new) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

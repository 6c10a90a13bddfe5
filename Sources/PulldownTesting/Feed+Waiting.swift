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

    /// `change(_:_:completion:)`, waited for, as `addItem(_:)` is.
    public func change(_ id: Int64, _ change: ItemChange) throws -> ChangeOutcome {
        try waited { self.change(id, change, completion: $0) }
    }

    /// Edits item `id` to `fields` and returns the change (failing on an unchanged edit).
    @discardableResult
    public func edit(_ id: Int64, to fields: NewItem) throws -> Change {
        guard case .changed(let change) = try change(id, .edit { _ in fields }) else {
            throw UnexpectedOutcome(what: "the edit of \(id) changed nothing")
        }
        return change
    }

    /// Deletes item `id` and returns the change.
    @discardableResult
    public func delete(_ id: Int64) throws -> Change {
        guard case .changed(let change) = try change(id, .delete { _ in }) else {
            throw UnexpectedOutcome(what: "the deletion of \(id) changed nothing")
        }
        return change
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

/// A call a test expected to do something did not.
public struct UnexpectedOutcome: Error, CustomStringConvertible {
    public let what: String
    public var description: String { what }
}

import Dispatch
import Synchronization

/// Drives `SharedStoreCheckState`: reads a shared store's newest id for many callers at once.
///
/// A caller that finds no read in flight reads on its own thread, as an uncoalesced check would.
/// Callers that arrive while a read is in flight are not held on a thread: their bodies are kept
/// and called by the thread that finishes the next read, which runs on `queue` so that no server
/// thread waits for it. No caller can wait for a check: there is no such method.
final class SharedStoreCheck: Sendable {
    /// The store's newest id (nil for an empty feed), or why the store did not answer.
    typealias Outcome = Result<Int64?, any Error>
    typealias Waiter = @Sendable (Outcome) -> Void
    private typealias Action = SharedStoreCheckState<Waiter, Outcome>.Action

    private let state = Mutex(SharedStoreCheckState<Waiter, Outcome>())
    /// Where scheduled reads run. Concurrent, so the next read can start while the callers of
    /// the previous one are still being answered; the state machine keeps one read in flight.
    private let queue = DispatchQueue(label: "pulldown.shared-store-check", attributes: .concurrent)
    private let read: @Sendable () -> Outcome

    /// `read` asks the store and records the answer where callers will look for it, before
    /// they are woken.
    init(read: @escaping @Sendable () -> Outcome) {
        self.read = read
    }

    /// Calls `body` with the outcome of a read that started after this call: before returning,
    /// when no read was in flight; else later, on the thread that made the read.
    ///
    /// `body` must be quick: it may run on the thread that made the read, which answers every
    /// caller that waited for it in turn.
    func check(_ body: @escaping Waiter) {
        guard let action = state.withLock({ $0.arrive(body) }) else { return }
        perform([action])
    }

    /// Reads started so far (for tests).
    var readsStarted: Int { state.withLock { $0.readsStarted } }

    private func perform(_ actions: [Action]) {
        for action in actions {
            switch action {
            case .read:
                let outcome = read()
                perform(state.withLock { $0.readFinished(outcome) })
            case .scheduleRead:
                queue.async {
                    self.state.withLock { $0.readStarting() }
                    self.perform([.read])
                }
            case .wake(let waiters, let outcome):
                for waiter in waiters { waiter(outcome) }
            }
        }
    }
}

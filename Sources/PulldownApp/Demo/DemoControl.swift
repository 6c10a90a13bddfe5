import PulldownHTTP
import Synchronization

/// The one place the demo knobs and the queued faults live while the server runs: the
/// middleware reads them for each request, `/api/demo` changes them, and whoever observes hears
/// of every change of the knobs.
final class DemoControl: Sendable {
    /// The start-up state, which a merge patch's null puts a knob back to.
    let defaults: DemoKnobs
    private let state: Mutex<(knobs: DemoKnobs, observers: [@Sendable (DemoKnobs) -> Void])>
    private let faults = Mutex(FaultQueue())

    init(_ knobs: DemoKnobs) {
        defaults = knobs
        state = Mutex((knobs, []))
    }

    /// The faults pending, oldest first.
    var pendingFaults: [FaultQueue.Fault] {
        faults.withLock { $0.pending }
    }

    /// Changes the fault queue; answers what is pending after it.
    func changeFaults(_ change: (inout FaultQueue) -> Void) -> [FaultQueue.Fault] {
        faults.withLock { queue in
            change(&queue)
            return queue.pending
        }
    }

    /// The status a request of `target` must fail with, counted off its fault, if one is queued.
    func takeFault(for target: FaultQueue.Target) -> Int? {
        faults.withLock { $0.take(for: target) }
    }

    var knobs: DemoKnobs {
        state.withLock { $0.knobs }
    }

    /// Calls `observer` with the new knobs after every change.
    func observe(_ observer: @escaping @Sendable (DemoKnobs) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Applies `change` to the knobs as one step (two patches at once never lose one) and tells
    /// the observers; answers the new knobs. What `change` throws changes nothing.
    ///
    /// Observers hear inside the lock, so they hear changes in the order they were made; they
    /// must be quick and must not read `knobs` (it would wait for itself).
    func update(_ change: (DemoKnobs) throws(Problem) -> DemoKnobs) throws(Problem) -> DemoKnobs {
        try state.withLock { state throws(Problem) in
            state.knobs = try change(state.knobs)
            for observer in state.observers { observer(state.knobs) }
            return state.knobs
        }
    }
}

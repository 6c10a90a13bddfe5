import PulldownHTTP
import Synchronization

/// The one place the demo knobs and the queued faults live while the server runs: the
/// middleware reads them for each request, `/api/demo` changes them, and whoever observes hears
/// of every change of the knobs. On a shared store, `DemoKnobsSync` brings in the changes made
/// by other instances (`adopt`); the faults stay this instance's own.
final class DemoControl: Sendable {
    private struct State {
        var knobs: DemoKnobs
        /// The start-up state, which a merge patch's null puts a knob back to.
        var defaults: DemoKnobs
        /// The shared store's revision of `knobs` (0 when not shared).
        var revision: Int64
        var observers: [@Sendable (DemoKnobs) -> Void] = []
        /// Changes made but not yet told, oldest first, and whether a caller is telling them.
        var untold: [DemoKnobs] = []
        var telling = false
    }

    private let state: Mutex<State>
    private let faults = Mutex(FaultQueue())

    init(_ knobs: DemoKnobs, defaults: DemoKnobs? = nil, revision: Int64 = 0) {
        state = Mutex(State(knobs: knobs, defaults: defaults ?? knobs, revision: revision))
    }

    /// What a merge patch's null puts a knob back to.
    var defaults: DemoKnobs {
        state.withLock { $0.defaults }
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

    /// The fault a request of `target` must fail with, counted off it, if one is queued.
    func takeFault(for target: FaultQueue.Target) -> FaultQueue.Fault? {
        faults.withLock { $0.take(for: target) }
    }

    var knobs: DemoKnobs {
        state.withLock { $0.knobs }
    }

    /// Calls `observer` with the new knobs after every change.
    func observe(_ observer: @escaping @Sendable (DemoKnobs) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Applies `patch` to the knobs as one step (two patches at once never lose one), null putting
    /// a knob back to `defaults`, and tells the observers; answers the new knobs.
    ///
    /// Observers hear outside the lock (they may read `knobs` or change them again), one change
    /// at a time and in the order the changes were made: a change made while another caller is
    /// telling is told by that caller, after the ones before it.
    func apply(_ patch: DemoKnobs.Patch) -> DemoKnobs {
        changeState { state in
            state.knobs = state.knobs.applying(patch, defaults: state.defaults)
            return true
        }
    }

    /// Takes the shared store's state at `revision` if it is newer than the one held, and tells
    /// the observers, as for a change made here; an older or the same revision changes nothing
    /// (it arrived after a newer one, or was already taken).
    func adopt(_ knobs: DemoKnobs, defaults: DemoKnobs, revision: Int64) {
        changeState { state in
            guard revision > state.revision else { return false }
            (state.knobs, state.defaults, state.revision) = (knobs, defaults, revision)
            return true
        }
    }

    /// Runs `change` under the lock; when it answers true, the new knobs join the untold ones,
    /// and unless another caller is already telling, this one tells them all, outside the lock.
    @discardableResult
    private func changeState(_ change: (inout State) -> Bool) -> DemoKnobs {
        let (knobs, tell) = state.withLock { state in
            guard change(&state) else { return (state.knobs, false) }
            state.untold.append(state.knobs)
            let tell = !state.telling
            state.telling = true
            return (state.knobs, tell)
        }
        if tell { tellUntold() }
        return knobs
    }

    /// Tells the observers each untold change in turn, until none is left.
    private func tellUntold() {
        while true {
            let next: (DemoKnobs, [@Sendable (DemoKnobs) -> Void])? = state.withLock { state in
                guard !state.untold.isEmpty else {
                    state.telling = false
                    return nil
                }
                return (state.untold.removeFirst(), state.observers)
            }
            guard let (knobs, observers) = next else { return }
            for observer in observers { observer(knobs) }
        }
    }
}

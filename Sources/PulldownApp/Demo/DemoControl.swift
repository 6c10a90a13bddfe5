import PulldownHTTP
import Synchronization

/// The one place the demo knobs live while the server runs: the middleware reads them for each
/// request, `PATCH /api/demo` changes them, and whoever observes hears of every change.
final class DemoControl: Sendable {
    /// The start-up state, which a merge patch's null puts a knob back to.
    let defaults: DemoKnobs
    private let state: Mutex<(knobs: DemoKnobs, observers: [@Sendable (DemoKnobs) -> Void])>

    init(_ knobs: DemoKnobs) {
        defaults = knobs
        state = Mutex((knobs, []))
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

import Dispatch
import PulldownFeed
import PulldownHTTP

/// The knobs of several instances on one shared store (PostgreSQL), kept as one: a PATCH is
/// merged into the stored knobs, and every instance, told by the store, takes the stored state
/// into its `DemoControl` (which pushes the `demo` event to its own streams).
///
/// Nothing here runs on a server thread: the store is asked on `queue`, and a PATCH is answered
/// from there through its `Responder`.
final class DemoKnobsSync: Sendable {
    let control: DemoControl
    private let store: any SharedDemoKnobs
    /// This start's knobs: the values of any knob the store does not hold.
    private let flags: DemoKnobs
    /// One at a time, so the store's answers reach the control in the order they were read.
    private let queue = DispatchQueue(label: "pulldown.demo-knobs", qos: .userInitiated)

    /// Joins the instances running on `store` (see `SharedDemoKnobs.join`): with none running,
    /// `flags` become everyone's knobs; else theirs hold here too, and standard error says so
    /// when they differ from `flags`.
    init(store: any SharedDemoKnobs, flags: DemoKnobs) throws {
        self.store = store
        self.flags = flags
        let (state, othersRunning) = try store.join(with: flags.numbers)
        let joined = Self.knobs(state, flags)
        control = DemoControl(joined.knobs, defaults: joined.defaults, revision: state.revision)
        if othersRunning > 0, joined.knobs != flags {
            ErrorLog.write("\(othersRunning) other instance\(othersRunning == 1 ? "" : "s") share the demo knobs "
                           + "on this database; theirs hold here too: " + String(decoding: joined.knobs.json, as: UTF8.self))
        }
        store.observeKnobChanges { [self] in queue.async { self.catchUp() } }
        // A change made between the join and the line above was told to nobody here.
        queue.async { self.catchUp() }
    }

    /// Merges `patch` into the stored knobs and answers the new state through `responder`; a
    /// store that does not answer is a 503, and nothing changed.
    func change(_ patch: DemoKnobs.Patch, _ responder: Responder) {
        queue.async { [self] in
            do {
                let state = try store.changeKnobs { stored in
                    let current = Self.knobs(stored, flags)
                    return current.knobs.applying(patch, defaults: current.defaults).numbers
                }
                let changed = Self.knobs(state, flags)
                control.adopt(changed.knobs, defaults: changed.defaults, revision: state.revision)
                responder.send(DemoEndpoints.knobsAnswer(changed.knobs))
            } catch {
                responder.send(HTTPResponse(answering: error))
            }
        }
    }

    /// Another instance changed the knobs (or changes may have been missed): take the stored ones.
    private func catchUp() {
        do {
            let state = try store.readKnobs()
            let stored = Self.knobs(state, flags)
            control.adopt(stored.knobs, defaults: stored.defaults, revision: state.revision)
        } catch {
            // The store's listener says "read again" once it is back.
            ErrorLog.write("cannot read the shared demo knobs: \(error)")
        }
    }

    /// The knobs and their start values in `state`, `flags` for any the store does not hold.
    private static func knobs(_ state: SharedKnobsState, _ flags: DemoKnobs) -> (knobs: DemoKnobs, defaults: DemoKnobs) {
        (flags.with(state.values), flags.with(state.startValues))
    }
}

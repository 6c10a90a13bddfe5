/// Checks of a shared store's newest id, coalesced: one read serves every caller that was waiting
/// for it, and at most one read is in flight. A pure state machine; `SharedStoreCheck` drives it.
///
/// The rule it keeps: a caller may use the outcome of a read only if that read started after the
/// caller arrived. A caller that arrives while a read is in flight may have arrived after another
/// process acknowledged an insert that read can no longer see, so it waits for the next read;
/// all callers that arrive meanwhile share that next read (a new generation).
///
/// ```
/// idle ─arrive─▶ reading ─readFinished, nobody arrived meanwhile─▶ idle
///                 ▲   │ readFinished, some arrived meanwhile
///   readStarting  │   ▼
///                scheduled   (callers that arrive now join the scheduled read)
/// ```
///
/// A failed read is an outcome like any other: its callers get the failure (the API answers 503)
/// and those waiting for the next read get a read of their own, so the store is asked again.
struct SharedStoreCheckState<Waiter, Outcome> {
    enum Action {
        /// Read the store now, on the arriving caller's thread; the read has started.
        case read
        /// Read the store soon, elsewhere; report `readStarting()` just before it starts.
        case scheduleRead
        /// Hand `Outcome` to these callers.
        case wake([Waiter], Outcome)
    }

    private enum Phase {
        case idle
        /// A read is due but has not started: callers that arrive now may use it.
        case scheduled
        /// A read is in flight: callers that arrive now wait for the next one.
        case reading
    }

    private var phase = Phase.idle
    /// The callers the scheduled or in-flight read will serve.
    private var served: [Waiter] = []
    /// The callers that arrived after the in-flight read started.
    private var waiting: [Waiter] = []
    /// Reads started so far; the generation of the one in flight.
    private(set) var readsStarted = 0

    /// True while no read is due or in flight (and so nobody waits).
    var isIdle: Bool { phase == .idle }

    /// A caller wants the store's newest id. Returns `.read` when nothing is in flight (the caller
    /// reads, and is served by its own read), else nil: the caller waits for a `.wake`.
    mutating func arrive(_ waiter: Waiter) -> Action? {
        switch phase {
        case .idle:
            served.append(waiter)
            phase = .reading
            readsStarted += 1
            return .read
        case .scheduled:
            served.append(waiter)
            return nil
        case .reading:
            waiting.append(waiter)
            return nil
        }
    }

    /// The scheduled read is starting: whoever arrives from now on waits for the next one.
    mutating func readStarting() {
        precondition(phase == .scheduled, "readStarting while \(phase)")
        phase = .reading
        readsStarted += 1
    }

    /// The read in flight answered (or failed) with `outcome`: its callers wake with it, and if
    /// any arrived while it was in flight, the next read is scheduled first.
    mutating func readFinished(_ outcome: Outcome) -> [Action] {
        precondition(phase == .reading, "readFinished while \(phase)")
        let wake = Action.wake(served, outcome)
        served = waiting
        waiting = []
        if served.isEmpty {
            phase = .idle
            return [wake]
        }
        phase = .scheduled
        return [.scheduleRead, wake]
    }
}

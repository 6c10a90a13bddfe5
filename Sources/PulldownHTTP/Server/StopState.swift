/// How a server stops, as a pure state machine: stop accepting, let in-flight requests finish
/// for the grace period, answer the ones still waiting with 503, give those answers a moment to
/// go out, then stop the threads.
///
/// `ServerCore.stop()` feeds it the time and the number of requests in flight, and carries out
/// the actions; tests drive it with any times they like.
struct StopState {
    enum Phase: Equatable {
        case running
        /// No new connections; in-flight requests may finish until `deadline`.
        case draining(deadline: ContinuousClock.Instant)
        /// Waiting requests were answered 503; they have until `deadline` to go out.
        case flushing(deadline: ContinuousClock.Instant)
        case stopped
    }

    enum Action: Equatable {
        /// Stop accepting new connections.
        case stopAccepting
        /// Nothing to do yet: check again when a request finishes or the phase's deadline comes.
        case wait
        /// Answer every suspended request with 503, and refuse new suspensions.
        case answerWaiting
        /// Stop libmicrohttpd's threads.
        case stopThreads
        /// Already stopped (a second `stop()`).
        case none
    }

    /// How long in-flight requests may take to finish before the rest are answered 503.
    let gracePeriod: Duration
    /// How long the 503s (and anything else in flight) get to go out before the threads stop.
    /// The flush ends as soon as nothing is in flight (about 0.1 s on an idle machine); the
    /// bound is long because on a saturated machine a resumed connection's thread may not run
    /// for a few hundred milliseconds, and a connection still waiting when the threads stop is
    /// closed without its answer.
    let flushPeriod: Duration
    private(set) var phase = Phase.running

    init(gracePeriod: Duration, flushPeriod: Duration = .seconds(1)) {
        self.gracePeriod = gracePeriod
        self.flushPeriod = flushPeriod
    }

    /// When the current phase ends at the latest; nil when it is not waiting.
    var deadline: ContinuousClock.Instant? {
        switch phase {
        case .draining(let deadline), .flushing(let deadline): deadline
        case .running, .stopped: nil
        }
    }

    /// A stop was asked for. Only the first call starts the sequence.
    mutating func begin(now: ContinuousClock.Instant) -> Action {
        guard phase == .running else { return .none }
        phase = .draining(deadline: now + gracePeriod)
        return .stopAccepting
    }

    /// The next step, given the time and how many requests are in flight.
    mutating func step(now: ContinuousClock.Instant, inFlight: Int) -> Action {
        switch phase {
        case .running, .stopped:
            return .none
        case .draining(let deadline):
            guard inFlight == 0 || now >= deadline else { return .wait }
            phase = .flushing(deadline: now + flushPeriod)
            return .answerWaiting
        case .flushing(let deadline):
            guard inFlight == 0 || now >= deadline else { return .wait }
            phase = .stopped
            return .stopThreads
        }
    }
}

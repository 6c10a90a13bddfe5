/// A libmicrohttpd connection that waits for work from another thread, as a pure state machine:
/// the connection's thread suspends it (so it holds no thread), and the work, when it comes,
/// resumes it. The one race that matters is written here once: work that arrives while the
/// connection is being suspended (after the thread decided to suspend, before
/// `MHD_suspend_connection` returned) cannot resume it yet, so `suspended(workArrived:)` does.
///
/// Used by both waiting kinds of connection: a request waiting for its answer
/// (`ExchangeState`) and a streamed body waiting for its next write (`ResponseStreamState`).
///
/// ```
/// running ─beginSuspending─▶ suspending ─suspended(workArrived: false)─▶ suspended
///    ▲                           │ workArrived: true                         │ workArrived()
///    └──── calledAgain ◀── resuming ◀────────────────────────────────────────┘
/// ```
struct Suspension: Equatable {
    enum Phase: Equatable {
        /// libmicrohttpd calls the connection's callbacks.
        case running
        /// The connection's thread found nothing to do and is suspending the connection.
        case suspending
        /// The connection waits, holding no thread, until work arrives.
        case suspended
        /// Work arrived and the connection was resumed; libmicrohttpd will call it again.
        case resuming
    }

    /// What the caller must do once it has released the lock that guards this machine.
    enum Wake: Equatable {
        case none
        /// Call `MHD_resume_connection`.
        case resume
    }

    private(set) var phase = Phase.running

    /// The connection's thread will suspend the connection now, then report `suspended(workArrived:)`.
    mutating func beginSuspending() {
        precondition(phase == .running, "beginSuspending in \(phase)")
        phase = .suspending
    }

    /// `MHD_suspend_connection` returned. Work that arrived meanwhile resumes it at once.
    mutating func suspended(workArrived: Bool) -> Wake {
        precondition(phase == .suspending, "suspended in \(phase)")
        if workArrived {
            phase = .resuming
            return .resume
        }
        phase = .suspended
        return .none
    }

    /// Work arrived, on any thread: a suspended connection is resumed (once); in any other
    /// phase the connection's thread will find the work itself.
    mutating func workArrived() -> Wake {
        guard phase == .suspended else { return .none }
        phase = .resuming
        return .resume
    }

    /// libmicrohttpd called the connection again, after a resume or in the normal course.
    mutating func calledAgain() {
        precondition(phase == .running || phase == .resuming, "called in \(phase)")
        phase = .running
    }
}

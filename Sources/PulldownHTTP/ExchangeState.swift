/// The life of one request, from its first byte to its queued answer, as a pure state machine.
///
/// libmicrohttpd calls the access handler several times per request (headers, body pieces, end
/// of body, again after a resume), and the answer may come from any thread. Each event goes in
/// here under the exchange's lock and comes out as an `Action`; the C calls that act on it
/// (suspend, resume, queue) are made by `Exchange` after the lock is released.
///
/// ```
/// reading ─handlerStarted─▶ handling ─handlerReturned─▶ suspending ─suspended─▶ suspended
///    │ answerEarly             │ answered already          │ refused, or an answer     │ complete
///    ▼                         ▼                           │ came while suspending     ▼
/// answered ◀─────────────── answered ◀──resumeArrived── resuming ◀──────────────────────┘
/// ```
struct ExchangeState {
    enum Phase: Equatable {
        /// Headers and body still arriving.
        case reading
        /// The handler is running on the connection's thread.
        case handling
        /// The handler returned without an answer; the connection's thread is suspending it.
        case suspending
        /// The connection waits, holding no thread, until an answer arrives.
        case suspended
        /// An answer arrived and the connection was resumed to send it.
        case resuming
        /// The answer was queued; nothing more happens to this request.
        case answered
    }

    /// What the caller must do once it has released the lock.
    enum Action {
        case none
        /// Queue this answer on the connection (only on the connection's thread).
        case queue(HTTPResponse)
        /// Suspend the connection, then report `suspended()`.
        case suspend
        /// Resume the suspended connection; libmicrohttpd then calls the handler again and
        /// `resumeArrived()` hands out the answer.
        case resume
    }

    private(set) var phase = Phase.reading
    /// The first answer given; later ones are dropped.
    private(set) var answer: HTTPResponse?

    var isReading: Bool { phase == .reading }

    /// An answer found while reading (a refused header, a body too large): it goes out now.
    mutating func answerEarly(_ response: HTTPResponse) -> Action {
        answer = response
        phase = .answered
        return .queue(response)
    }

    mutating func handlerStarted() {
        phase = .handling
    }

    /// The handler returned: queue its answer, or suspend the connection until one comes.
    mutating func handlerReturned() -> Action {
        precondition(phase == .handling, "handlerReturned in \(phase)")
        if let answer {
            phase = .answered
            return .queue(answer)
        }
        phase = .suspending
        return .suspend
    }

    /// The server is stopping and refused the suspension (libmicrohttpd aborts if it stops with
    /// a suspended connection): the answer goes out now, the handler's if it came meanwhile.
    mutating func suspensionRefused(stoppingAnswer: HTTPResponse) -> Action {
        precondition(phase == .suspending, "suspensionRefused in \(phase)")
        let response = answer ?? stoppingAnswer
        answer = response
        phase = .answered
        return .queue(response)
    }

    /// The connection is now suspended. An answer that arrived while it was being suspended
    /// resumes it right away.
    mutating func suspended() -> Action {
        precondition(phase == .suspending, "suspended in \(phase)")
        if answer != nil {
            phase = .resuming
            return .resume
        }
        phase = .suspended
        return .none
    }

    /// An answer, from any thread. The first one wins.
    mutating func complete(with response: HTTPResponse) -> Action {
        guard answer == nil else { return .none }
        switch phase {
        case .reading, .handling, .suspending:
            answer = response
            return .none
        case .suspended:
            answer = response
            phase = .resuming
            return .resume
        case .resuming, .answered:
            return .none
        }
    }

    /// libmicrohttpd called the handler again after a resume: the answer that woke it goes out.
    /// nil when this call is not the one after a resume.
    mutating func resumeArrived() -> Action? {
        guard phase == .resuming, let answer else { return nil }
        phase = .answered
        return .queue(answer)
    }
}

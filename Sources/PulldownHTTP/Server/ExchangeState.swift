/// The life of one request, from its head to its queued answer, as a pure state machine.
///
/// libmicrohttpd calls the access handler several times per request (the head, each piece of
/// body, the end of the body, again after a resume), and the answer may come from any thread.
/// `Exchange` feeds each call in here under a lock and carries out the `Action` that comes
/// out (stop the read deadline, run the handler, queue, suspend, resume) once it is released.
///
/// Each state carries what it needs, so that no combination that cannot happen can be written:
/// only a request being read has a body, only a request being handled or waiting has room for
/// its answer. Generic over the answer so that tests use plain values.
///
/// ```
/// readingHead ─headRead─▶ readingBody ─readyToAnswer─▶ handling ─handlerReturned─▶ waiting
///     │ refused              │ past the limit             │ answer already here    │ (a Suspension;
///     │                      ▼                            │                        │  resumed with
///     │               discardingBody ─readyToAnswer─┐     │                        │  the answer:
///     ▼                                             ▼     ▼                        ▼  readyToAnswer)
///  answered ◀─────────────────────────────────────────────────────────────────────────
/// ```
struct ExchangeState<Answer> {
    enum State {
        /// Nothing read yet but the request line.
        case readingHead
        /// The head passed its checks; the body arrives.
        case readingBody([UInt8])
        /// The body passed the size limit: the rest is read and dropped, and the refusal goes
        /// out once the request is complete (libmicrohttpd refuses an answer queued mid-body).
        case discardingBody
        /// The handler is running on the connection's thread; an answer may already be here.
        case handling(answer: Answer?)
        /// The handler returned without an answer: the connection is suspended until one comes.
        case waiting(Suspension, answer: Answer?)
        /// The answer was queued; nothing more happens to this request.
        case answered
    }

    /// What the caller must do once it has released the lock.
    enum Action {
        case none
        /// Reading is over: stop the read deadline and queue this answer.
        case refuse(Answer)
        /// Reading is over: stop the read deadline and refuse the body as too large (413).
        case refuseBodyTooLarge
        /// Reading is over: stop the read deadline and run the handler on this body, then
        /// report `handlerReturned()`.
        case handle(body: [UInt8])
        /// Queue this answer on the connection (only on the connection's thread).
        case queue(Answer)
        /// Suspend the connection, then report `suspended()` (or `suspensionRefused`).
        case suspend
        /// Resume the suspended connection; libmicrohttpd then calls the handler again and
        /// `readyToAnswer()` hands out the answer.
        case resume
    }

    private(set) var state = State.readingHead

    /// The head arrived; `refusal` is the answer its checks gave (`requestHeadRefusal`), if any.
    mutating func headRead(refusal: Answer?) -> Action {
        guard case .readingHead = state else { return .none }
        if let refusal {
            state = .answered
            return .refuse(refusal)
        }
        state = .readingBody([])
        return .none
    }

    /// A piece of the body arrived. Past `limit` bytes the body is dropped.
    mutating func bodyRead(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        guard case .readingBody(var body) = state else { return }
        // Let go of the state's reference first, so that the append does not copy the body.
        state = .answered
        if body.count + bytes.count > limit {
            state = .discardingBody
            return
        }
        body.append(contentsOf: bytes)
        state = .readingBody(body)
    }

    /// libmicrohttpd is ready for an answer: the request is complete, or the connection was
    /// resumed and the answer that woke it goes out.
    mutating func readyToAnswer() -> Action {
        switch state {
        case .readingBody(let body):
            state = .handling(answer: nil)
            return .handle(body: body)
        case .discardingBody:
            state = .answered
            return .refuseBodyTooLarge
        case .waiting(let suspension, let answer?) where suspension.phase == .resuming:
            state = .answered
            return .queue(answer)
        case .readingHead, .handling, .waiting, .answered:
            return .none
        }
    }

    /// The handler returned: queue its answer, or suspend the connection until one comes.
    mutating func handlerReturned() -> Action {
        guard case .handling(let answer) = state else { preconditionFailure("handlerReturned in \(state)") }
        if let answer {
            state = .answered
            return .queue(answer)
        }
        var suspension = Suspension()
        suspension.beginSuspending()
        state = .waiting(suspension, answer: nil)
        return .suspend
    }

    /// The server is stopping and refused the suspension (libmicrohttpd aborts if it stops with
    /// a suspended connection): the answer goes out now, the handler's if it came meanwhile.
    mutating func suspensionRefused(stoppingAnswer: Answer) -> Action {
        guard case .waiting(_, let answer) = state else { preconditionFailure("suspensionRefused in \(state)") }
        state = .answered
        return .queue(answer ?? stoppingAnswer)
    }

    /// The connection is now suspended. An answer that arrived while it was being suspended
    /// resumes it right away.
    mutating func suspended() -> Action {
        guard case .waiting(var suspension, let answer) = state else { preconditionFailure("suspended in \(state)") }
        let wake = suspension.suspended(workArrived: answer != nil)
        state = .waiting(suspension, answer: answer)
        return wake == .resume ? .resume : .none
    }

    /// An answer, from any thread. The first one wins.
    mutating func complete(with answer: Answer) -> Action {
        switch state {
        case .handling(answer: nil):
            state = .handling(answer: answer)
            return .none
        case .waiting(var suspension, answer: nil):
            let wake = suspension.workArrived()
            state = .waiting(suspension, answer: answer)
            return wake == .resume ? .resume : .none
        case .readingHead, .readingBody, .discardingBody, .handling, .waiting, .answered:
            return .none
        }
    }
}

extension ExchangeState.Action: Equatable where Answer: Equatable {}
extension ExchangeState.State: Equatable where Answer: Equatable {}
extension ExchangeState: Sendable where Answer: Sendable {}
extension ExchangeState.State: Sendable where Answer: Sendable {}
extension ExchangeState.Action: Sendable where Answer: Sendable {}

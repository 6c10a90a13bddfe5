/// When the event stream opens again, as a pure state machine: the client's `EventSource`.
///
/// A stream that was open and ended (the server stopped, a proxy cut it, the network went) opens
/// again after the reconnection time, which the server's `retry:` sets. A connection that could
/// not be made waits that time doubled at each failure in a row, to a minute. A stream the server
/// refused (429, 5xx) waits its `Retry-After` the way ``LiveState/retryDelay(attempt:base:random:)``
/// says. Any other answer (a 400 for a bad cursor, an answer that is not an event stream) ends
/// the stream with that error: asking again would get the same.
struct Reconnection: Sendable {
    /// How a connection ended.
    enum Ending: Sendable {
        /// It was open, and ended.
        case ended
        /// No answer came (the server is down, the network is).
        case unreachable
        /// The server refused it for now (429, 5xx).
        case refused(ProblemDetails)
        /// The server will not serve it as asked.
        case rejected(any Error)
    }

    enum Step: Sendable {
        case reconnect(after: Duration)
        case finish(any Error)
    }

    /// WHATWG leaves the first reconnection time to the client; the server's `retry:` replaces it.
    private(set) var reconnectionTime: Duration = .seconds(3)
    private var failures = 0
    private let maximum: Duration = .seconds(60)

    /// A `retry:` field.
    mutating func retry(milliseconds: Int) {
        reconnectionTime = .milliseconds(milliseconds)
    }

    /// The stream is open: the failures in a row are over.
    mutating func opened() {
        failures = 0
    }

    /// The connection ended as `ending` says: when to try again, if at all (`random` in 0...1).
    mutating func ended(_ ending: Ending, random: Double) -> Step {
        switch ending {
        case .ended:
            return .reconnect(after: reconnectionTime)
        case .unreachable:
            defer { failures += 1 }
            return .reconnect(after: min(maximum, reconnectionTime * (1 << min(failures, 16))))
        case .refused(let problem):
            defer { failures += 1 }
            return .reconnect(after: LiveState.retryDelay(attempt: failures, base: problem.retryAfter ?? .seconds(5),
                                                          random: random))
        case .rejected(let error):
            return .finish(error)
        }
    }
}

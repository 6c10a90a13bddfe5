import PulldownHTTP

/// An error that knows how the API answers it, as Hummingbird's `HTTPResponseError` does: the
/// problem the client gets (its status among it), and the line the server's log gets.
///
/// What the client gets never says where the database is or why it failed; that goes to the
/// log. An error that conforms to nothing here is a programming error: a 500, logged as one.
protocol HTTPResponseError: Error {
    var problem: Problem { get }
    /// For the server's log; nil when the client's answer says it all.
    var logLine: String? { get }
}

extension HTTPResponseError {
    var logLine: String? { nil }
}

/// `error` as the API knows it: itself when it knows its answer, else a programming error.
func answerable(_ error: any Error) -> any HTTPResponseError {
    (error as? any HTTPResponseError) ?? ProgrammingError(underlying: error)
}

extension HTTPResponse {
    /// The answer to any error a handler met, logged where the server should know of it.
    init(answering error: any Error) {
        let known = answerable(error)
        if let line = known.logLine { ErrorLog.write(line) }
        self = known.problem.response
    }
}

/// An error the API has no answer for: the code went wrong, not the client or the store.
struct ProgrammingError: HTTPResponseError {
    let underlying: any Error

    var problem: Problem {
        Problem(status: 500, title: "Internal Server Error",
                detail: "The server failed to answer this request; the failure is logged.")
    }

    var logLine: String? { "programming error: \(underlying)" }
}

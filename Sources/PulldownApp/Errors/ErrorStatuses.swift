import PulldownFeed
import PulldownHTTP

extension Problem: HTTPResponseError {
    var problem: Problem { self }
}

/// A field the feed refused: the client's mistake.
extension FeedError: HTTPResponseError {
    var problem: Problem {
        switch self {
        case .invalid(let fields):
            Problem.badRequest("Some fields are invalid.", invalidParams: fields)
        }
    }
}

/// The store did not do what was asked: not the client's fault, and worth a retry. Where the
/// database is, and why it failed, is the operator's business: the log's, not the client's.
extension StoreError: HTTPResponseError {
    var problem: Problem {
        Problem(status: 503, title: "Service Unavailable", detail: "The store did not answer. Try again in a moment.",
                headers: HTTPHeaders([("Retry-After", "1")]))
    }

    var logLine: String? { "store error: \(self)" }
}

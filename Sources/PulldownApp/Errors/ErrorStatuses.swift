import PulldownFeed
import PulldownHTTP

extension Problem: HTTPResponseError {
    var problem: Problem { self }
}

/// What the feed refused: the client's mistake, or an item that is not there (any more).
extension FeedError: HTTPResponseError {
    var problem: Problem {
        switch self {
        case .invalid(let fields):
            Problem.badRequest("Some fields are invalid.", invalidParams: fields)
        case .noSuchItem(let id):
            Problem.notFound("There is no item \(id).")
        case .deleted(let id):
            Problem(status: 410, title: "Gone", detail: "Item \(id) was deleted.", type: "tag:pulldown,2026:item-deleted")
        case .changesExpired(let since):
            Problem(status: 410, title: "Gone",
                    detail: "The changes after \(since) are no longer all kept; start again from the newest page.",
                    type: "tag:pulldown,2026:changes-expired")
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

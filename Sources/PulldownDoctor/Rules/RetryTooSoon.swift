import Foundation

/// `retry-too-soon`: the same request sent again before the `Retry-After` of its 429 or 503 ran
/// out. A retry loop that ignores the header turns one overloaded moment into a storm.
struct RetryTooSoon: Rule {
    public static let name = "retry-too-soon"
    public static let title = "Retried a 429 or 503 before its Retry-After"
    public static let advice = "A 429 or 503 with Retry-After says how many seconds to wait before asking again: "
        + "wait at least that long (and back off further if it fails again) before retrying the same request, "
        + "whether the retry is automatic or a Try again button."

    /// The refusals whose wait is not over, the latest few (a client retries what it just sent).
    private var waits: [(key: RequestKey, until: Date, refusal: ObservedRequest)] = []

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        let isRefusal = request.status == 429 || request.status == 503
        // Nearly every request: nothing waits and nothing is refused, so nothing to compare.
        guard isRefusal || !waits.isEmpty else { return .fine }
        let key = RequestKey(request)
        waits.removeAll { $0.until <= request.started }
        let early = waits.last { $0.key == key }
        if isRefusal, let seconds = request.answer.retryAfter {
            waits.removeAll { $0.key == key }
            if waits.count == 8 { waits.removeFirst() }
            waits.append((key, request.ended.addingTimeInterval(TimeInterval(seconds)), request))
        }
        return early.map { .mistake(because: $0.refusal) } ?? .fine
    }
}

/// What makes two requests "the same" for a retry: the method, the path and, for a page or an
/// item, what it asks for; a refresh or a stream is the same whatever its cursor.
struct RequestKey: Hashable {
    let method: String
    let path: Substring
    let ask: ObservedRequest.Ask

    init(_ request: ObservedRequest) {
        method = request.method
        path = request.path
        switch request.ask {
        case .refresh: ask = .refresh(after: nil)
        case .stream: ask = .stream(lastEventID: nil, after: nil)
        default: ask = request.ask
        }
    }
}

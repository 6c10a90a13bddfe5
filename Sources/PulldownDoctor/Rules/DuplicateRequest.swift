/// `duplicate-request`: the same page (or item) asked again while the first was in flight, or
/// within a second of its answer, or the same refresh while the first was in flight: a list's
/// end-reached callback firing twice (React Native's onEndReached, facebook/react-native#14015),
/// an effect run twice.
struct DuplicateRequest: Rule {
    public static let name = "duplicate-request"
    public static let title = "Asked for the same thing twice at once"
    public static let advice = "Keep one request per page in flight: remember that a page is being loaded (or which "
        + "cursor was last asked for) and ignore a second trigger until its answer is in; a refresh the same way."

    /// The latest request for each of the last few things asked.
    private var recent: [ObservedRequest] = []

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        switch request.ask {
        case .page, .item, .refresh: break
        case .stream, .other: return .fine
        }
        var verdict = Verdict.fine
        if let index = recent.lastIndex(where: { $0.ask == request.ask }) {
            let earlier = recent.remove(at: index)
            // Asked again after a failure is a retry (retry-too-soon's business), not a duplicate:
            // only a request still in flight, or answered well, was enough. A refresh after the
            // last one's answer is the reader's new pull, and a page asked again with its tag and
            // answered 304 a revalidation of what the client holds (a reload, Back): nothing came twice.
            let first = earlier.started <= request.started ? earlier : request
            let second = earlier.started <= request.started ? request : earlier
            let inFlight = second.started < first.ended
            let isRefresh = if case .refresh = request.ask { true } else { false }
            let revalidated = second.sentValidator && second.status == 304
            if inFlight || (!isRefresh && !revalidated && first.succeeded && ObservedRequest.atOnce(first, second)) {
                verdict = .mistake(because: earlier)
            }
        }
        if recent.count == 8 { recent.removeFirst() }
        recent.append(request)
        return verdict
    }
}

/// `poll-without-validator`: the newest page asked again without `If-None-Match`, by a client that
/// was given its `ETag`: every poll downloads the whole page, where a 304 costs almost nothing.
struct PollWithoutValidator: Rule {
    public static let name = "poll-without-validator"
    public static let title = "Polled the newest page without If-None-Match"
    public static let advice = "Send the ETag of the last newest page in If-None-Match: while nothing changed the "
        + "answer is a 304 with no body. Better still, ask only for what is new (after=NEWEST), or listen to "
        + "/api/events instead of polling."

    public init() {}

    public func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard facts.isNewestAgain(request), !request.sentValidator, let earlier = facts.newestWithTag else { return .fine }
        return .mistake(because: earlier)
    }
}

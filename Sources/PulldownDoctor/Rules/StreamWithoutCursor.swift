/// `stream-without-cursor`: a first event stream opened without `Last-Event-ID` or `after=` by a
/// client that holds items already: whatever was added between its page and the stream's start is
/// never announced.
struct StreamWithoutCursor: Rule {
    public static let name = "stream-without-cursor"
    public static let title = "Opened the event stream without a cursor while holding items"
    public static let advice = "Open the stream from the newest item the list holds, /api/events?after=ID: items "
        + "added between loading the page and opening the stream then arrive as events instead of being skipped."

    public init() {}

    public func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard case .stream(nil, nil) = request.ask, facts.lastStream == nil, let items = facts.itemsFrom else { return .fine }
        return .mistake(because: items)
    }
}

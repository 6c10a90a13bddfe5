/// `reconnect-without-last-event-id`: an event stream opened again without `Last-Event-ID` or
/// `after=`: it starts at the newest item, so whatever was added while it was closed is lost, or
/// fetched again by hand.
struct ReconnectWithoutLastEventID: Rule {
    public static let name = "reconnect-without-last-event-id"
    public static let title = "Reopened the event stream without Last-Event-ID"
    public static let advice = "Reconnect with the id of the last event received, in the Last-Event-ID header "
        + "(EventSource does it by itself when it reconnects; a new EventSource does not) or as "
        + "/api/events?after=ID: the server then sends exactly what was missed."

    public init() {}

    public func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard case .stream(nil, nil) = request.ask, let earlier = facts.lastStream else { return .fine }
        return .mistake(because: earlier)
    }
}

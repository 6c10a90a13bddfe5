import PulldownHTTP

/// `GET /api/events`: new items, edits and deletions as server-sent events (see `LiveEvents`).
struct EventsEndpoint: Sendable {
    let live: LiveEvents
    var baseURL = BaseURL()

    func addRoute(to router: inout Router) {
        router.add("GET", "/api/events", answeringLater: { request, responder in self.open(request, responder) })
    }

    /// The cursor is `Last-Event-ID` (what EventSource sends when it reconnects), else `?after=`.
    func open(_ request: HTTPRequest, _ responder: Responder) {
        let cursor: Int64?
        let base: String
        do {
            cursor = try Self.cursor(of: request)
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        guard let stream = live.subscribe(after: cursor, base: base) else {
            return responder.send(Problem(status: 503, title: "Service Unavailable",
                                          detail: "Too many event streams are open. Try again in a moment.",
                                          headers: HTTPHeaders([("Retry-After", "5")])).response)
        }
        responder.send(.stream(stream, headers: HTTPHeaders([
            ("Content-Type", "text/event-stream"),
            ("Cache-Control", CacheControl.noStore),
            // Proxies that buffer answers (nginx) would hold events back.
            ("X-Accel-Buffering", "no"),
        ])))
    }

    static func cursor(of request: HTTPRequest) throws(Problem) -> Int64? {
        var reader = QueryReader(request.query)
        let fromQuery = reader.integer("after", in: 0...Int64.max)
        let header = request.headers["Last-Event-ID"]
        let fromHeader = header.flatMap(DecimalDigits.parse)
        if header != nil && fromHeader == nil {
            reader.invalid.add("Last-Event-ID", "must be an event id, as sent in the stream")
        }
        try reader.invalid.check("The stream's cursor is invalid.")
        return fromHeader ?? fromQuery
    }
}

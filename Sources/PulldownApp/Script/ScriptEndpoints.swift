import InvalidInput
import PulldownHTTP

/// The script and the demo clock under /api/demo (the demo's access rules):
/// `GET`/`PUT /api/demo/script`, `POST /api/demo/script/play|pause|restart`,
/// `GET`/`POST /api/demo/clock`, `GET`/`PUT`/`DELETE /api/demo/rate-limit`.
struct ScriptEndpoints: Sendable {
    let player: ScriptPlayer
    let clock: DemoClock
    let gate: ScriptGate
    /// Loads the generated items a move of the clock made due (the timer would, a moment later).
    let generate: @Sendable () -> Void

    func addRoutes(to router: inout Router) {
        router.get("/api/demo/script") { _ in status() }
        router.add("PUT", "/api/demo/script") { request in API.answer { try load(request) } }
        router.post("/api/demo/script/play") { _ in control(player.play()) }
        router.post("/api/demo/script/pause") { _ in control(player.pause()) }
        router.post("/api/demo/script/restart") { _ in control(player.restart()) }
        router.get("/api/demo/clock") { _ in clockAnswer() }
        router.post("/api/demo/clock") { request in API.answer { try advance(request) } }
        router.get("/api/demo/rate-limit") { _ in rateLimitAnswer() }
        router.add("PUT", "/api/demo/rate-limit") { request in API.answer { try setRateLimit(request) } }
        router.add("DELETE", "/api/demo/rate-limit") { _ in
            gate.setRateLimit(nil)
            return rateLimitAnswer()
        }
    }

    private func status() -> HTTPResponse {
        DemoEndpoints.uncached(HTTPResponse.json(player.json))
    }

    /// The body is the script, loaded whole and played from its start, or refused whole.
    private func load(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        guard JSONBody.isJSON(contentType: request.headers["Content-Type"]) else {
            throw Problem.badRequest("The script must be JSON, sent with Content-Type: application/json.",
                                     invalidParams: [.init(name: "Content-Type", reason: InvalidParameters.Reason.applicationJSON)])
        }
        do {
            player.load(try DemoScript.parse(request.body))
        } catch {
            throw error.problem
        }
        return status()
    }

    private func control(_ loaded: Bool) -> HTTPResponse {
        guard loaded else {
            return Problem(status: 409, title: "Conflict",
                           detail: "No script is loaded: PUT one to /api/demo/script, or start with --script FILE.").response
        }
        return status()
    }

    // MARK: /api/demo/clock

    /// `{"advance": "5s"}` moves a manual clock on; the wall clock is not moved (409).
    private func advance(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let body = try JSONBody(request, emptyAllowed: false)
        var invalid = InvalidParameters()
        body.rejectUnknown(["advance"], into: &invalid)
        let seconds = invalid.required("advance", ScriptDuration.read(body, "advance", in: 0...31_536_000))
        guard let seconds, invalid.all.isEmpty else { throw invalid.problem("The clock was not moved.") }
        guard clock.advance(by: seconds) != nil else {
            throw Problem(status: 409, title: "Conflict",
                          detail: "The demo runs on the wall clock, which cannot be moved; start the server with --clock manual.")
        }
        generate()
        return clockAnswer()
    }

    private func clockAnswer() -> HTTPResponse {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        json.key("now"); json.string(Timestamp.iso8601(clock.now(), milliseconds: true))
        json.key("manual"); json.bool(clock.isManual)
        json.endObject()
        return DemoEndpoints.uncached(HTTPResponse.json(json.bytes))
    }

    // MARK: /api/demo/rate-limit

    /// `{"limit": 10, "window": "10s"}` holds a limit from now, as the `rateLimit` step does.
    private func setRateLimit(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let body = try JSONBody(request, emptyAllowed: false)
        var invalid = InvalidParameters()
        body.rejectUnknown(["limit", "window"], into: &invalid)
        let policy = RateLimitWindow.policy(from: body, into: &invalid)
        try invalid.check("Some fields are invalid; the rate limit was not changed.")
        gate.setRateLimit(policy)
        return rateLimitAnswer()
    }

    private func rateLimitAnswer() -> HTTPResponse {
        var json = JSONWriter(capacity: 64)
        let limit = gate.rateLimit
        json.beginObject()
        json.key("limit"); if let limit { json.integer(limit.policy.limit) } else { json.null() }
        json.key("window"); if let limit { json.number(limit.policy.window) } else { json.null() }
        json.key("since"); if let limit { json.string(Timestamp.iso8601(limit.start, milliseconds: true)) } else { json.null() }
        json.endObject()
        return DemoEndpoints.uncached(HTTPResponse.json(json.bytes))
    }
}

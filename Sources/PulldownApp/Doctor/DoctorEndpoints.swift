import PulldownHTTP

/// `/api/doctor`: the clients the doctor keeps and their findings, one client's timeline, and the
/// findings as they come (`/api/doctor/events`). Its own scope, behind the demo's access rules
/// (`DemoAccess`): it shows other clients' requests, so beyond loopback it needs the token.
/// Its requests are no client's: the doctor does not watch itself, and the demo knobs leave it alone.
struct DoctorEndpoints: Sendable {
    let doctor: ClientDoctor

    func addRoutes(to router: inout Router) {
        router.get("/api/doctor") { _ in Self.uncached(.json(DoctorJSON.clients(doctor.clients, skipped: doctor.skipped))) }
        router.get("/api/doctor/{client}") { request in
            let id = request.pathParameters["client"] ?? ""
            guard let client = doctor.client(id: id) else {
                return Problem.notFound("The doctor keeps no client \(id); GET /api/doctor lists those it keeps.").response
            }
            return Self.uncached(.json(DoctorJSON.client(client)))
        }
        router.get("/api/doctor/events") { _ in
            guard let stream = doctor.watchers.add() else {
                return Problem(status: 503, title: "Service Unavailable",
                               detail: "\(DoctorWatchers.limit) doctor streams are open already. Try again in a moment.",
                               headers: HTTPHeaders([("Retry-After", "5")])).response
            }
            return .stream(stream, headers: HTTPHeaders([
                ("Content-Type", "text/event-stream"), ("Cache-Control", CacheControl.noStore), ("X-Accel-Buffering", "no"),
            ]))
        }
    }

    /// With `--doctor off` the scope answers only that.
    static func off(_ request: HTTPRequest) -> HTTPResponse {
        Problem.notFound("The client doctor is off (--doctor off).").response
    }

    /// What the doctor saw changes with every request.
    private static func uncached(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.add("Cache-Control", CacheControl.noStore)
        return response
    }
}

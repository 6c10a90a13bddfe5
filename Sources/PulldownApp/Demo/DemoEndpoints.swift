import PulldownHTTP

/// The demo control API under /api/demo: read and change the knobs while the server runs.
///
/// Its own scope, so the knobs never delay or fail the requests that steer them.
struct DemoEndpoints: Sendable {
    let control: DemoControl

    func addRoutes(to router: inout Router) {
        router.get("/api/demo") { _ in Self.knobsAnswer(control.knobs) }
        router.add("PATCH", "/api/demo") { request in API.answer { try change(request) } }
    }

    // MARK: PATCH /api/demo

    /// A JSON merge patch of the knobs (`application/merge-patch+json`, or plain JSON).
    private func change(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let patch = try JSONBody(request, emptyAllowed: false)
        let knobs = try control.update { knobs throws(Problem) in try knobs.merging(patch, defaults: control.defaults) }
        return Self.knobsAnswer(knobs)
    }

    private static func knobsAnswer(_ knobs: DemoKnobs) -> HTTPResponse {
        var response = HTTPResponse.json(knobs.json)
        // They change at any time, from anywhere.
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}

import PulldownHTTP

/// The demo control API under /api/demo: read and change the knobs while the server runs.
///
/// Its own scope, so the knobs never delay or fail the requests that steer them.
struct DemoEndpoints: Sendable {
    let control: DemoControl
    let items: DemoItems
    let churn: DemoChurn
    let reset: DemoReset
    /// The store that shares the knobs with other instances; nil: they live here only.
    let sync: DemoKnobsSync?

    func addRoutes(to router: inout Router) {
        router.get("/api/demo") { _ in Self.knobsAnswer(control.knobs) }
        router.add("PATCH", "/api/demo", answeringLater: { request, responder in change(request, responder) })
        router.get("/api/demo/faults") { _ in Self.faultsAnswer(control.pendingFaults) }
        router.post("/api/demo/faults") { request in API.answer { try queueFault(request) } }
        router.add("DELETE", "/api/demo/faults") { _ in Self.faultsAnswer(control.changeFaults { $0.clear() }) }
        router.add("POST", "/api/demo/items", answeringLater: { request, responder in items.add(request, responder) })
        router.add("POST", "/api/demo/churn", answeringLater: { request, responder in churn.respond(to: request, responder) })
        router.add("POST", "/api/demo/reset", answeringLater: { request, responder in reset.reset(request, responder) })
    }

    // MARK: PATCH /api/demo

    /// A JSON merge patch of the knobs (`application/merge-patch+json`, or plain JSON), checked
    /// before anything changes; on a shared store, merged there (answered later, from `sync`).
    private func change(_ request: HTTPRequest, _ responder: Responder) {
        let patch: DemoKnobs.Patch
        do {
            patch = try DemoKnobs.Patch(JSONBody(request, emptyAllowed: false))
        } catch {
            return responder.send(error.response)
        }
        guard let sync else { return responder.send(Self.knobsAnswer(control.apply(patch))) }
        sync.change(patch, responder)
    }

    // MARK: /api/demo/faults

    /// Queues one fault; answers 201 with every fault pending.
    private func queueFault(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let fault = try FaultQueue.fault(from: JSONBody(request, emptyAllowed: false))
        return Self.faultsAnswer(control.changeFaults { $0.add(fault) }, status: 201)
    }

    static func knobsAnswer(_ knobs: DemoKnobs) -> HTTPResponse {
        uncached(HTTPResponse.json(knobs.json))
    }

    private static func faultsAnswer(_ pending: [FaultQueue.Fault], status: Int = 200) -> HTTPResponse {
        uncached(HTTPResponse.json(FaultQueue.json(pending), status: status))
    }

    /// The demo's state changes at any time, from anywhere: never kept.
    static func uncached(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.add("Cache-Control", CacheControl.noStore)
        return response
    }
}

import Dispatch
import PulldownHTTP

extension Router {
    /// The answer to `request`, waiting for it if the route answers later (tests only: a server
    /// thread uses `handle` and never waits).
    func respond(to request: HTTPRequest) -> HTTPResponse {
        let answered = DispatchSemaphore(value: 0)
        let box = ResponseBox()
        handle(request, Responder { response in
            box.set(response)
            answered.signal()
        })
        answered.wait()
        return box.get()
    }
}

/// Carries one response from whichever thread answers to the one waiting.
private final class ResponseBox: @unchecked Sendable {
    private var response: HTTPResponse?
    func set(_ value: HTTPResponse) { response = value }
    func get() -> HTTPResponse { response! }
}

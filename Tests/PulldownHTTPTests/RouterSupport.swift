import Dispatch
import PulldownHTTP
import Synchronization

extension Router {
    /// The answer to `request`, waiting for it if the route answers later (tests only: a server
    /// thread never waits).
    func respond(to request: HTTPRequest) -> HTTPResponse {
        let answered = DispatchSemaphore(value: 0)
        let response = Mutex<HTTPResponse?>(nil)
        handler(request, Responder { sent in
            response.withLock { $0 = sent }
            answered.signal()
        })
        answered.wait()
        return response.withLock { $0! }
    }
}

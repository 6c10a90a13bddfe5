/// Answers a request from any thread, now or later.
///
/// A handler may call `send` before it returns (the usual case) or keep the responder and
/// call it later from another thread; the connection then waits suspended and holds no
/// server thread. Only the first `send` counts.
public struct Responder: Sendable {
    let exchange: Exchange

    public func send(_ response: HTTPResponse) {
        exchange.complete(with: response)
    }
}

/// The entry point a server calls for every request that was read completely.
public typealias HTTPHandler = @Sendable (HTTPRequest, Responder) -> Void

extension Router {
    /// This router as a server handler that answers at once.
    public var handler: HTTPHandler {
        let router = self
        return { request, responder in responder.send(router.respond(to: request)) }
    }
}

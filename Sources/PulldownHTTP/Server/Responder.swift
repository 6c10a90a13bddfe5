/// Answers a request from any thread, now or later.
///
/// A handler may call `send` before it returns (the usual case) or keep the responder and
/// call it later from another thread; the connection then waits suspended and holds no
/// server thread. Only the first `send` counts.
public struct Responder: Sendable {
    private let deliver: @Sendable (HTTPResponse) -> Void

    /// A responder that hands the answer to `deliver` (to wrap another responder, or in tests).
    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    init(_ exchange: Exchange) {
        self.deliver = { exchange.complete(with: $0) }
    }

    public func send(_ response: HTTPResponse) {
        deliver(response)
    }
}

/// The entry point a server calls for every request that was read completely.
public typealias HTTPHandler = @Sendable (HTTPRequest, Responder) -> Void

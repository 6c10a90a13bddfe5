/// A synchronous route handler: one request in, one response out.
public typealias RouteHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps a method and an exact path to a handler.
///
/// `HEAD` is answered by the `GET` handler of the same path (libmicrohttpd drops the body and
/// keeps `Content-Length`). A path that no route names goes to `fallback` (static files);
/// a routed path with another method gets 405 with an `Allow` header. A route either answers
/// at once (`RouteHandler`) or later through its `Responder` (`answeringLater:`).
public struct Router: Sendable {
    private var routes: [String: [String: HTTPHandler]] = [:]
    private let fallback: HTTPHandler

    public init(fallback: @escaping RouteHandler = { request in
        Problem.notFound("Nothing is served at \(request.path).").response
    }) {
        self.fallback = { request, responder in responder.send(fallback(request)) }
    }

    public mutating func add(_ method: String, _ path: String, _ handler: @escaping RouteHandler) {
        add(method, path, answeringLater: { request, responder in responder.send(handler(request)) })
    }

    /// A route whose handler keeps the responder and answers when its work is done.
    public mutating func add(_ method: String, _ path: String, answeringLater handler: @escaping HTTPHandler) {
        routes[path, default: [:]][method] = handler
    }

    public mutating func get(_ path: String, _ handler: @escaping RouteHandler) { add("GET", path, handler) }
    public mutating func post(_ path: String, _ handler: @escaping RouteHandler) { add("POST", path, handler) }

    /// The methods a routed path answers, `HEAD` included wherever `GET` is; nil for an unrouted path.
    public func allowedMethods(for path: String) -> [String]? {
        guard let methods = routes[path] else { return nil }
        var allowed = Set(methods.keys)
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return allowed.sorted()
    }

    /// Sends the request to its route, or answers 404/405.
    public func handle(_ request: HTTPRequest, _ responder: Responder) {
        guard let methods = routes[request.path] else { return fallback(request, responder) }
        let method = request.method == "HEAD" && methods["HEAD"] == nil ? "GET" : request.method
        if let handler = methods[method] { return handler(request, responder) }
        responder.send(Problem.methodNotAllowed(request.method, allowed: allowedMethods(for: request.path) ?? []).response)
    }

    /// This router as a server handler.
    public var handler: HTTPHandler {
        let router = self
        return { request, responder in router.handle(request, responder) }
    }
}

/// A synchronous route handler: one request in, one response out.
public typealias RouteHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps a method and an exact path to a handler.
///
/// `HEAD` is answered by the `GET` handler of the same path (libmicrohttpd drops the body and
/// keeps `Content-Length`). A path that no route names goes to `fallback` (static files);
/// a routed path with another method gets 405 with an `Allow` header.
public struct Router: Sendable {
    private var routes: [String: [String: RouteHandler]] = [:]
    private let fallback: RouteHandler

    public init(fallback: @escaping RouteHandler = { request in
        Problem.notFound("Nothing is served at \(request.path).").response
    }) {
        self.fallback = fallback
    }

    public mutating func add(_ method: String, _ path: String, _ handler: @escaping RouteHandler) {
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

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let methods = routes[request.path] else { return fallback(request) }
        let method = request.method == "HEAD" && methods["HEAD"] == nil ? "GET" : request.method
        if let handler = methods[method] { return handler(request) }
        return Problem.methodNotAllowed(request.method, allowed: allowedMethods(for: request.path) ?? []).response
    }
}

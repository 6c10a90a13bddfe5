/// A synchronous route handler: one request in, one response out.
public typealias RouteHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// A step in front of the routes of a scope: it may answer by itself (a preflight, an injected
/// failure), or pass the request on to `next`, and it may change the answer on its way back by
/// handing `next` a responder of its own.
public protocol HTTPMiddleware: Sendable {
    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler)
}

/// The one place that says how a request is routed.
///
/// A route is a method and a path pattern: exact segments, and `{name}` segments that match any
/// one segment and reach the handler in `HTTPRequest.pathParameters`. `HEAD` is answered by the
/// `GET` handler of the same path (libmicrohttpd drops the body and keeps `Content-Length`; a
/// streamed body is dropped by `Exchange`, and its answer states no length); a
/// routed path with another method gets 405 with an `Allow` header. A scope (`/api`) puts
/// middleware in front of every request under its prefix, routed or not, and answers its own
/// unrouted paths; the rest goes to the router's fallback (the page's files).
public struct Router: Sendable {
    private var exact: [String: [String: HTTPHandler]] = [:]
    private var patterns: [(segments: [String], methods: [String: HTTPHandler])] = []
    private var scopes: [Scope] = []
    private let fallback: HTTPHandler

    private struct Scope: Sendable {
        let prefix: String
        let middleware: [any HTTPMiddleware]
        let notFound: HTTPHandler

        func contains(_ path: String) -> Bool {
            path == prefix || (path.hasPrefix(prefix) && path.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/"))
        }
    }

    public init(fallback: @escaping RouteHandler = { request in
        Problem.notFound("Nothing is served at \(request.path).").response
    }) {
        self.fallback = { request, responder in responder.send(fallback(request)) }
    }

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        add(method, pattern, answeringLater: { request, responder in responder.send(handler(request)) })
    }

    /// A route whose handler keeps the responder and answers when its work is done.
    public mutating func add(_ method: String, _ pattern: String, answeringLater handler: @escaping HTTPHandler) {
        let segments = Self.segments(of: pattern)
        guard segments.contains(where: Self.isParameter) else {
            exact[pattern, default: [:]][method] = handler
            return
        }
        if let index = patterns.firstIndex(where: { $0.segments == segments }) {
            patterns[index].methods[method] = handler
        } else {
            patterns.append((segments, [method: handler]))
        }
    }

    public mutating func get(_ path: String, _ handler: @escaping RouteHandler) { add("GET", path, handler) }
    public mutating func post(_ path: String, _ handler: @escaping RouteHandler) { add("POST", path, handler) }

    /// Every request whose path is `prefix` or below it passes through `middleware`, the first
    /// one outermost; a path below it that no route names gets `notFound`.
    public mutating func scope(_ prefix: String, middleware: [any HTTPMiddleware],
                               notFound: @escaping RouteHandler) {
        scopes.append(Scope(prefix: prefix, middleware: middleware,
                            notFound: { request, responder in responder.send(notFound(request)) }))
        // The longest prefix wins.
        scopes.sort { $0.prefix.utf8.count > $1.prefix.utf8.count }
    }

    /// The methods a path answers, `HEAD` included wherever `GET` is; nil when no route names it.
    func allowedMethods(for path: String) -> [String]? {
        guard let methods = match(path, segments: Self.segments(of: path))?.methods else { return nil }
        return Self.allowed(methods)
    }

    /// This router as a server handler; each scope's middleware chain is built once, here.
    public var handler: HTTPHandler {
        let router = self
        let chains: [(Scope, HTTPHandler)] = scopes.map { scope in
            let endpoint: HTTPHandler = { request, responder in router.dispatch(request, responder, notFound: scope.notFound) }
            let chain = scope.middleware.reversed().reduce(endpoint) { next, middleware in
                { request, responder in middleware.handle(request, responder, next: next) }
            }
            return (scope, chain)
        }
        return { request, responder in
            for (scope, chain) in chains where scope.contains(request.path) {
                return chain(request, responder)
            }
            router.dispatch(request, responder, notFound: router.fallback)
        }
    }

    private func dispatch(_ request: HTTPRequest, _ responder: Responder, notFound: HTTPHandler) {
        guard let (methods, parameters) = match(request.path, segments: request.target.segments) else {
            return notFound(request, responder)
        }
        let method = request.method == "HEAD" && methods["HEAD"] == nil ? "GET" : request.method
        guard let handler = methods[method] else {
            return responder.send(Problem.methodNotAllowed(request.method, allowed: Self.allowed(methods)).response)
        }
        if parameters.isEmpty {
            handler(request, responder)
        } else {
            var request = request
            request.pathParameters = parameters
            handler(request, responder)
        }
    }

    /// The route for a path; patterns compare decoded segments, so an encoded `/` stays inside
    /// the one segment it was sent in.
    private func match(_ path: String, segments: @autoclosure () -> [String]) -> (methods: [String: HTTPHandler], parameters: [String: String])? {
        if let methods = exact[path] { return (methods, [:]) }
        guard !patterns.isEmpty else { return nil }
        let segments = segments()
        for pattern in patterns where pattern.segments.count == segments.count {
            var parameters: [String: String] = [:]
            let matches = zip(pattern.segments, segments).allSatisfy { expected, actual in
                guard Self.isParameter(expected) else { return expected == actual }
                parameters[String(expected.dropFirst().dropLast())] = actual
                return !actual.isEmpty
            }
            if matches { return (pattern.methods, parameters) }
        }
        return nil
    }

    /// A pattern's or a plain path's segments, as `RequestTarget` splits a request's path.
    private static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    private static func isParameter(_ segment: String) -> Bool {
        segment.hasPrefix("{") && segment.hasSuffix("}")
    }

    private static func allowed(_ methods: [String: HTTPHandler]) -> [String] {
        var allowed = Set(methods.keys)
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return allowed.sorted()
    }
}

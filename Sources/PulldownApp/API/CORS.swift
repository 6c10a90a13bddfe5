import PulldownHTTP

/// Cross-origin access for the listed origins only, with credentials (the session cookie).
///
/// As middleware it answers preflights itself and adds its headers to every other answer,
/// injected failures and 404s included.
struct CORS: HTTPMiddleware {
    let allowedOrigins: Set<String>

    // PATCH and DELETE steer a demo (`/api/demo`).
    static let allowedMethods = "GET, HEAD, POST, PATCH, DELETE"
    static let allowedHeaders = "Content-Type, X-Session-Id, If-None-Match, Authorization"
    static let exposedHeaders = "Link, ETag, Location, Retry-After, X-Session-Id"

    var isEnabled: Bool { !allowedOrigins.isEmpty }

    /// The allowed origin of a request, if it sent one on the list.
    func allowedOrigin(of request: HTTPRequest) -> String? {
        guard let origin = request.headers["Origin"], allowedOrigins.contains(origin) else { return nil }
        return origin
    }

    /// Whether this is a preflight (`OPTIONS` with `Access-Control-Request-Method`).
    func isPreflight(_ request: HTTPRequest) -> Bool {
        isEnabled && request.method == "OPTIONS" && request.headers.contains("Access-Control-Request-Method")
    }

    func preflightResponse(for request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        if let origin = allowedOrigin(of: request) {
            response = HTTPResponse(status: 204)
            response.headers.add("Access-Control-Allow-Methods", Self.allowedMethods)
            response.headers.add("Access-Control-Allow-Headers", Self.allowedHeaders)
            response.headers.add("Access-Control-Max-Age", "600")
            addHeaders(to: &response, origin: origin)
        } else {
            response = Problem(status: 403, title: "Forbidden",
                               detail: "The origin \(request.headers["Origin"] ?? "(none)") may not call this API.").response
        }
        // Which of the two it is depends on the Origin, as every answer under /api/ does.
        response.headers.add("Vary", "Origin")
        return response
    }

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        if isPreflight(request) { return responder.send(preflightResponse(for: request)) }
        next(request, Responder { response in
            var response = response
            decorate(&response, for: request)
            responder.send(response)
        })
    }

    func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        guard isEnabled else { return }
        response.headers.add("Vary", "Origin")
        if let origin = allowedOrigin(of: request) {
            addHeaders(to: &response, origin: origin)
            response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        }
    }

    private func addHeaders(to response: inout HTTPResponse, origin: String) {
        response.headers.add("Access-Control-Allow-Origin", origin)
        response.headers.add("Access-Control-Allow-Credentials", "true")
    }
}

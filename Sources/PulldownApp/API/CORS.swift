import PulldownHTTP

/// Cross-origin access (the Fetch standard's CORS), as a demo backend is called: from any origin
/// without credentials, so a front end on another port pages, refreshes and listens with no flag
/// (its session goes in `X-Session-Id`), and with credentials (the session cookie) from the
/// origins `--cors-origin` lists only. What `Access-Control-Allow-Origin: *` allows a browser
/// never carries cookies, so no other origin can act as a visitor of the page.
///
/// As middleware it answers preflights itself and adds its headers to the other answers of its
/// scope, injected failures and 404s included: to every answer a cache may keep, and to any
/// answer to a page (a request with `Origin`). Answers the API keeps ready carry the shared
/// headers already (`addSharedHeaders`), so those pass through untouched.
struct CORS: HTTPMiddleware {
    /// The origins that may send credentials: `--cors-origin`.
    var credentialedOrigins: Set<String> = []
    /// Why a preflight is refused in this scope, nil when none is: the demo API from another
    /// origin without a token to check (`DemoAccess`).
    var preflightRefusal: Problem?

    // PATCH, PUT and DELETE steer a demo (`/api/demo`, a client's network profile).
    static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"
    static let allowedHeaders = "Content-Type, X-Session-Id, If-None-Match, Last-Event-ID, Authorization"
    static let exposedHeaders = "Link, ETag, Location, Retry-After, X-Session-Id, Allow, WWW-Authenticate, X-Total-Count"
    static let allowOrigin = "Access-Control-Allow-Origin"
    /// How long a browser may reuse a preflight's answer, in seconds (Chromium keeps at most 7200).
    static let maxAge = "7200"

    /// This CORS in a scope that refuses preflights with `refusal` (nil: none is refused).
    func refusingPreflights(_ refusal: Problem?) -> CORS {
        var scoped = self
        scoped.preflightRefusal = refusal
        return scoped
    }

    /// Whether `request` comes from a page of another origin: its browser says so
    /// (`Sec-Fetch-Site`, which a page cannot set), or, from a browser that does not, its
    /// `Origin` is not this server's (`BaseURL`). A request with neither (curl, a native app)
    /// comes from no page.
    static func isCrossOrigin(_ request: HTTPRequest, baseURL: BaseURL) -> Bool {
        if let site = request.headers["Sec-Fetch-Site"] { return site != "same-origin" && site != "none" }
        guard let origin = request.headers["Origin"] else { return false }
        return !baseURL.isOwn(origin, for: request)
    }

    /// Whether this is a preflight (`OPTIONS` with `Access-Control-Request-Method`).
    static func isPreflight(_ request: HTTPRequest) -> Bool {
        request.method == "OPTIONS" && request.headers.contains("Access-Control-Request-Method")
    }

    /// The origin of a request that may send credentials, if it is one.
    func credentialedOrigin(of request: HTTPRequest) -> String? {
        guard !credentialedOrigins.isEmpty, let origin = request.headers["Origin"], credentialedOrigins.contains(origin) else {
            return nil
        }
        return origin
    }

    func preflightResponse(for request: HTTPRequest) -> HTTPResponse {
        if let preflightRefusal {
            var response = preflightRefusal.response
            response.headers.add("Vary", "Origin")
            return response
        }
        var response = HTTPResponse(status: 204)
        response.headers.add("Access-Control-Allow-Methods", Self.allowedMethods)
        response.headers.add("Access-Control-Allow-Headers", Self.allowedHeaders(asked: request.headers["Access-Control-Request-Headers"]))
        response.headers.add("Access-Control-Max-Age", Self.maxAge)
        decorate(&response, for: request)
        response.headers.add("Vary", "Access-Control-Request-Headers")
        return response
    }

    /// The headers a preflight allows: this API's, and any other the page asked for (the server
    /// ignores what it does not read, so a front end's own headers need not fail the call).
    static func allowedHeaders(asked: String?) -> String {
        let known = Set(allowedHeaders.lowercased().split(separator: ",").map { $0.trimmingSpaces() })
        let others = (asked ?? "").split(separator: ",").map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty && $0.utf8.allSatisfy(isTokenByte) && !known.contains($0.lowercased()[...]) }
        return ([allowedHeaders] + others.map(String.init)).joined(separator: ", ")
    }

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        if Self.isPreflight(request) { return responder.send(preflightResponse(for: request)) }
        next(request, Responder { response in
            var response = response
            decorate(&response, for: request)
            responder.send(response)
        })
    }

    /// The headers every answer of the scope carries for a request without credentials (and,
    /// where some origins may send them, `Vary: Origin`): added where the API keeps an answer
    /// ready, so that sending it changes nothing.
    func addSharedHeaders(to response: inout HTTPResponse) {
        response.headers.add(Self.allowOrigin, "*")
        response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        if !credentialedOrigins.isEmpty { response.headers.add("Vary", "Origin") }
    }

    func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        if let origin = credentialedOrigin(of: request) {
            response.headers.set(Self.allowOrigin, origin)
            response.headers.set("Access-Control-Allow-Credentials", "true")
            if !response.headers.contains("Access-Control-Expose-Headers") {
                response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
                response.headers.add("Vary", "Origin")
            }
        } else if !carriesSharedHeaders(response) {
            // An answer no cache keeps reaches only the request that asked for it, and one that
            // sent no Origin came from no page: it needs nothing (a refresh pays less for it).
            if response.headers["Cache-Control"] == CacheControl.noStore && !request.headers.contains("Origin") { return }
            addSharedHeaders(to: &response)
        }
    }

    /// Whether `response` has its `Access-Control-Allow-Origin` already. Asked of every answer:
    /// the name is compared as this type spells it (it alone writes it), and first among the last
    /// fields, where `addSharedHeaders` put it on an answer kept ready.
    private func carriesSharedHeaders(_ response: HTTPResponse) -> Bool {
        let isAllowOrigin = { (field: (name: String, value: String)) in field.name == Self.allowOrigin }
        return response.headers.fields.suffix(3).contains(where: isAllowOrigin) || response.headers.fields.contains(where: isAllowOrigin)
    }

    /// A character of an HTTP token (RFC 9110, section 5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

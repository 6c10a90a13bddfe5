import PulldownHTTP

/// Where the absolute URLs the server writes begin (`Link`, `Location`, an item's pictures):
/// `--public-url` behind a proxy, else the request's own scheme (TLS or not) and `Host`, as a
/// native client or another origin reached the server. `HostHeader` has checked every `Host`
/// before any handler runs, so what is written here is a host and nothing else.
struct BaseURL: Sendable {
    /// `--public-url` as an origin (`https://feed.example`), nil to take each request's own.
    let configured: String?

    init(configured: String? = nil) {
        self.configured = configured
    }

    /// `http(s)://host[:port]` for `request`, nil for one without `Host` (HTTP/1.0) when none is
    /// configured.
    func of(_ request: HTTPRequest) -> String? {
        configured ?? Self.reached(request)
    }

    /// `http(s)://host[:port]` as `request` reached the server: its scheme and `Host`.
    private static func reached(_ request: HTTPRequest) -> String? {
        guard let authority = request.headers["Host"].flatMap(HostHeader.authority) else { return nil }
        return (request.isTLS ? "https://" : "http://") + authority
    }

    /// The base for `request`, or the 400 that says why there is none.
    func require(_ request: HTTPRequest) throws(Problem) -> String {
        guard let base = of(request) else { throw Self.noHost }
        return base
    }

    /// What the base of a request is made of, as it was sent: the key of the answers kept per
    /// base, found without building the base (a check and a new string, on every request).
    struct Key: Hashable, Sendable {
        /// The `Host` header as sent; empty with `--public-url`.
        let host: String
        let isTLS: Bool
    }

    /// The key of `request`'s base, or the 400 `require` would give.
    func key(of request: HTTPRequest) throws(Problem) -> Key {
        if configured != nil { return Key(host: "", isTLS: false) }
        guard let host = request.headers["Host"] else { throw Self.noHost }
        return Key(host: host, isTLS: request.isTLS)
    }

    private static var noHost: Problem {
        Problem.badRequest("This answer holds absolute URLs, written from the Host header: send one "
                           + "(or start the server with --public-url).")
    }

    /// Whether `origin` (an `Origin` header) is this server as `request` reached it, or as
    /// `--public-url` names it.
    func isOwn(_ origin: String, for request: HTTPRequest) -> Bool {
        origin == configured || origin == Self.reached(request)
    }

    /// `--public-url`'s value as an origin: `http` or `https`, a host (`HostHeader`) and an
    /// optional port, and nothing after it but one `/`; lower case. Nil for anything else.
    static func publicOrigin(_ url: String) -> String? {
        let lowered = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lowered.hasPrefix) else { return nil }
        var authority = lowered.dropFirst(scheme.count)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard let host = HostHeader(String(authority)) else { return nil }
        return scheme + host.authority
    }

    /// The host `--public-url` names, as a certificate names it (`feed.example`, `fd00::7`).
    static func host(ofPublicOrigin origin: String) -> String? {
        guard let authority = origin.split(separator: "/").last, let host = HostHeader(String(authority)) else { return nil }
        return host.host.hasPrefix("[") ? String(host.host.dropFirst().dropLast()) : host.host
    }
}

/// One request as a handler sees it: everything read, nothing left to wait for.
public struct HTTPRequest: Sendable {
    /// What was read, kept in one object: a request is handed through the router, middleware
    /// and escaping closures, and each copy of it then costs one reference count, not one per field.
    private final class Parts: Sendable {
        let method: String
        let target: RequestTarget
        let headers: HTTPHeaders
        let body: [UInt8]
        let isTLS: Bool
        let peer: PeerAddress?

        init(method: String, target: RequestTarget, headers: HTTPHeaders, body: [UInt8], isTLS: Bool, peer: PeerAddress?) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
            self.isTLS = isTLS
            self.peer = peer
        }
    }

    private let parts: Parts
    /// The values of the route's `{name}` segments (see `Router`).
    public internal(set) var pathParameters: [String: String] = [:]

    init(method: String, target: RequestTarget, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                isTLS: Bool = false, peer: PeerAddress? = nil) {
        parts = Parts(method: method, target: target, headers: headers, body: body, isTLS: isTLS, peer: peer)
    }

    /// The method token as sent (`GET`, `POST`, ...). Methods are case-sensitive (RFC 9110).
    public var method: String { parts.method }
    public var target: RequestTarget { parts.target }
    public var headers: HTTPHeaders { parts.headers }
    public var body: [UInt8] { parts.body }
    /// Whether the request arrived over TLS (an `https://` URL): cookies set in answer to it
    /// may be `Secure`.
    public var isTLS: Bool { parts.isTLS }
    /// The address the request came from (the connection's peer, as libmicrohttpd has it); nil
    /// for a request made up in a test.
    public var peer: PeerAddress? { parts.peer }

    /// Builds a request from a raw target; for tests and for callers that already trust the target.
    init?(method: String, rawTarget: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                 isTLS: Bool = false, peer: PeerAddress? = nil) {
        guard case .success(let target) = RequestTarget.parse(rawTarget) else { return nil }
        self.init(method: method, target: target, headers: headers, body: body, isTLS: isTLS, peer: peer)
    }

    /// The decoded path.
    public var path: String { target.path }
    public var query: QueryParameters { target.query }

    /// The values of one cookie, parsed from every `Cookie` header (RFC 6265, section 5.4).
    public func cookie(_ name: String) -> [String] {
        headers.values(for: "Cookie").flatMap { header in
            header.split(separator: ";").compactMap { pair -> String? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingSpaces() == name else { return nil }
                return String(parts[1].trimmingSpaces())
            }
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (the "optional whitespace" of HTTP fields).
    public func trimmingSpaces() -> Substring {
        var result = self
        while result.first == " " || result.first == "\t" { result.removeFirst() }
        while result.last == " " || result.last == "\t" { result.removeLast() }
        return result
    }
}

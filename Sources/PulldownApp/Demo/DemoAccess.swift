import PulldownHTTP

/// Who may steer the demo: on loopback only, anyone who reaches the server (only this machine
/// does); beyond it, every request to /api/demo needs `Authorization: Bearer TOKEN`, from every
/// client, loopback included (a reverse proxy on the same host must not open it to the world).
struct DemoAccess: HTTPMiddleware {
    /// nil: open.
    let token: [UInt8]?

    /// The access for a server listening on `host`: `configured`, else a new random token, when
    /// it is beyond loopback.
    init(host: String, configured: String?) {
        token = NetworkAddresses.isLoopback(host) ? nil : Array((configured ?? Self.randomToken()).utf8)
    }

    /// The token a presenter needs, nil when none is.
    var presenterToken: String? {
        token.map { String(decoding: $0, as: UTF8.self) }
    }

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        guard let token else { return next(request, responder) }
        guard let given = Self.bearer(request.headers["Authorization"]), Self.constantTimeEquals(given, token) else {
            // The answer never carries the token, nor says how close a guess came.
            var headers = HTTPHeaders()
            headers.add("WWW-Authenticate", #"Bearer realm="pulldown demo""#)
            return responder.send(Problem(status: 401, title: "Unauthorized",
                                          detail: "The demo API needs Authorization: Bearer with the token printed at start.",
                                          headers: headers).response)
        }
        next(request, responder)
    }

    /// The credentials of `Bearer CREDENTIALS` (the scheme in any case, RFC 9110).
    static func bearer(_ header: String?) -> [UInt8]? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count,
              zip(bytes, scheme).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
        return Array(bytes.dropFirst(scheme.count).drop { $0 == 0x20 })
    }

    /// Compares every byte of `expected` whatever `given` is, so the time taken says nothing of
    /// how much of a guess was right.
    static func constantTimeEquals(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= Int(byte ^ expected[index])
        }
        return difference == 0
    }

    /// 8 to 200 characters of token68 (RFC 9110) less `=`, so it fits the header and a URL fragment as it is.
    static func isUsableToken(_ token: String) -> Bool {
        (8...200).contains(token.utf8.count) && token.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || "-._~+/".utf8.contains(byte)
        }
    }

    /// 128 random bits in hex.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

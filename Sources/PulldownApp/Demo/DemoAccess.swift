import Hashing
import PulldownHTTP

/// Who may steer the demo: on loopback only, anyone who reaches the server (only this machine
/// does); beyond it, every request to /api/demo needs `Authorization: Bearer TOKEN`, from every
/// client, loopback included (a reverse proxy on the same host must not open it to the world).
///
/// A page of another origin never steers it without the token, on loopback too: a web page the
/// presenter happens to visit could otherwise post to `localhost` (a form or a `text/plain`
/// fetch needs no preflight, so CORS alone would not stop it). Such a request (`CORS
/// .isCrossOrigin`) needs the token even on loopback, where it is `--demo-token`'s, and is
/// refused without one.
struct DemoAccess: HTTPMiddleware {
    /// Needed by every request; nil: open.
    let token: [UInt8]?
    /// Needed by a request from another origin: `token`, else `--demo-token` on loopback; nil:
    /// such requests are refused.
    let crossOriginToken: [UInt8]?
    /// This server's own origin, to tell another's.
    var baseURL = BaseURL()

    /// The access for a server listening on `host`: `configured`, else a new random token, when
    /// it is beyond loopback.
    init(host: String, configured: String?, baseURL: BaseURL = BaseURL()) {
        token = NetworkAddresses.isLoopback(host) ? nil : Array((configured ?? Self.randomToken()).utf8)
        crossOriginToken = token ?? configured.map { Array($0.utf8) }
        self.baseURL = baseURL
    }

    /// The token a presenter needs, nil when none is.
    var presenterToken: String? {
        token.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The answer to a page of another origin when no token could let it in: why, and the option.
    static let crossOriginRefused = Problem(
        status: 403, title: "Forbidden",
        detail: "A page on another origin cannot steer the demo without its token. Start the server with "
            + "--demo-token TOKEN and send Authorization: Bearer TOKEN.")

    /// Why a preflight for the demo API is refused: no token could let another origin in.
    var preflightRefusal: Problem? {
        crossOriginToken == nil ? Self.crossOriginRefused : nil
    }

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        let needed: [UInt8]?
        if CORS.isCrossOrigin(request, baseURL: baseURL) {
            guard let crossOriginToken else { return responder.send(Self.crossOriginRefused.response) }
            needed = crossOriginToken
        } else {
            needed = token
        }
        guard let needed else { return next(request, responder) }
        guard let given = Self.bearer(request.headers["Authorization"]), ConstantTime.equal(given, needed) else {
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
        return Hex.encode(generator.next() as UInt64) + Hex.encode(generator.next() as UInt64)
    }
}

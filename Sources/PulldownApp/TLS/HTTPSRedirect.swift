import Foundation
import PulldownHTTP

/// Where plain HTTP on a TLS port is sent: the same host and target on `https://`.
///
/// A 307 (temporary): a browser given `http://192.168.1.20:8080/` lands on the page, a POST keeps
/// its method and body, and nothing is cached for good, as a 301 or 308 would be, so the same
/// port may serve plain HTTP again in a later run. For the same reason no HSTS header is ever
/// sent: it would hold for every port of the host, other servers' included.
enum HTTPSRedirect {
    /// The `https://` URL for a path and query on the host named by `hostHeader`, on `port`
    /// (nil: the header's own port, for a port that speaks both); nil when the header is
    /// missing or names no host.
    static func location(hostHeader: String?, port: UInt16?, rawPath: String = "/",
                         query: QueryParameters = QueryParameters()) -> String? {
        guard let (host, ownPort) = hostHeader.flatMap(split) else { return nil }
        let query = query.pairs.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
        let shownPort = port.map { $0 == 443 ? "" : ":\($0)" } ?? ownPort.map { ":" + $0 } ?? ""
        return "https://\(host)\(shownPort)\(rawPath)\(query.isEmpty ? "" : "?" + query)"
    }

    /// A `Host` header's host and port: `[::1]:8080` is `[::1]` and 8080, `pc.local` has no
    /// port. Only the characters of a name or an address are accepted.
    static func split(_ header: String) -> (host: String, port: String?)? {
        var host = Substring(header)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
            host = host[...close]
            guard host.count > 2, host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = host.firstIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            let allowed = host.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".") }
            guard !host.isEmpty, allowed else { return nil }
        }
        if let port { guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit) else { return nil } }
        return (String(host), port.map(String.init))
    }

    /// The answer to a plain request on a TLS port that is not for the trust page: the same
    /// URL on https://, on the same port.
    static func response(to request: HTTPRequest) -> HTTPResponse {
        guard let location = location(hostHeader: request.headers["Host"], port: nil,
                                      rawPath: request.target.rawPath, query: request.query) else {
            return Problem.badRequest("This port speaks HTTPS: use an https:// URL.").response
        }
        var response = HTTPResponse.text("This port speaks HTTPS: \(location)\n", status: 307)
        response.headers.add("Location", location)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

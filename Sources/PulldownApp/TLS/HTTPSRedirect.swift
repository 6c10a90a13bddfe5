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
    /// missing or names no host (`HostHeader`).
    static func location(hostHeader: String?, port: UInt16?, rawPath: String = "/",
                         query: QueryParameters = QueryParameters()) -> String? {
        guard let host = hostHeader.flatMap(HostHeader.init) else { return nil }
        let query = query.pairs.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
        let shownPort = port.map { $0 == 443 ? "" : ":\($0)" } ?? host.port.map { ":\($0)" } ?? ""
        return "https://\(host.host)\(shownPort)\(rawPath)\(query.isEmpty ? "" : "?" + query)"
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
        response.headers.add("Cache-Control", CacheControl.noStore)
        return response
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// The origin-form request target (`/path?query`) split and decoded.
///
/// The server hands libmicrohttpd an unescape function that does nothing, so the raw target
/// reaches this parser untouched and every decoding rule lives here, in one place.
public struct RequestTarget: Sendable, Equatable {
    /// The path as sent, still percent-encoded.
    public let rawPath: String
    /// The path's segments, each percent-decoded on its own, so an encoded `%2F` stays inside
    /// its segment instead of becoming a separator.
    public let segments: [String]
    /// The decoded path: segments joined with `/`.
    public let path: String
    public let query: QueryParameters

    /// Why a target was refused.
    public enum Failure: Error, Equatable {
        case notOriginForm
        case malformedPathEncoding
        case malformedQueryEncoding
        case nulByte
    }

    public static func parse(_ raw: String) -> Result<RequestTarget, Failure> {
        guard raw.utf8.first == UInt8(ascii: "/") else { return .failure(.notOriginForm) }
        let withoutFragment = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = String(parts[0])
        var segments: [String] = []
        for rawSegment in rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let segment = PercentDecoding.decode(rawSegment) else { return .failure(.malformedPathEncoding) }
            if segment.utf8.contains(0) { return .failure(.nulByte) }
            segments.append(segment)
        }
        var query = QueryParameters()
        if parts.count > 1 {
            guard let parsed = QueryParameters(parsing: parts[1]) else { return .failure(.malformedQueryEncoding) }
            if parsed.pairs.contains(where: { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }) {
                return .failure(.nulByte)
            }
            query = parsed
        }
        return .success(RequestTarget(rawPath: rawPath, segments: segments,
                                      path: "/" + segments.joined(separator: "/"), query: query))
    }
}

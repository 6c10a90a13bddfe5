/// The origin-form request target (`/path?query`) split and decoded.
///
/// The server hands libmicrohttpd an unescape function that does nothing, so the raw target
/// reaches this parser untouched and every decoding rule lives here, in one place.
public struct RequestTarget: Sendable, Equatable {
    /// The whole target as sent (path and query), for whoever shows a request as it came.
    public let raw: String
    /// The path as sent, still percent-encoded.
    public let rawPath: String
    /// The decoded path: segments joined with `/`.
    let path: String
    let query: QueryParameters
    /// The segments of a path that had escapes, each decoded on its own; nil for a path without
    /// any, the usual case, whose segments are split from `path` only when asked for.
    private let decodedSegments: [String]?

    /// The path's segments, each percent-decoded on its own, so an encoded `%2F` stays inside
    /// its segment instead of becoming a separator.
    public var segments: [String] {
        decodedSegments ?? path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .dropFirst().map { String(Substring($0)) }
    }

    /// Why a target was refused.
    enum Failure: Error, Equatable {
        case notOriginForm
        case malformedPathEncoding
        case malformedQueryEncoding
        case nulByte
    }

    /// Splits and decodes a raw target. Works on UTF-8 bytes: it runs for every request, and
    /// String's Character-level splitting cost more than everything else a request does.
    static func parse(_ raw: String) -> Result<RequestTarget, Failure> {
        let whole = raw
        var raw = raw
        return raw.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return .failure(.notOriginForm) }
            let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
            let questionMark = bytes[..<end].firstIndex(of: UInt8(ascii: "?"))
            let pathBytes = UnsafeBufferPointer(rebasing: bytes[..<(questionMark ?? end)])
            if pathBytes.contains(0) { return .failure(.nulByte) }
            let rawPath: String
            let path: String
            var decodedSegments: [String]?
            if pathBytes.contains(UInt8(ascii: "%")) {
                var segments: [String] = []
                for rawSegment in pathBytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
                    guard let segment = PercentDecoding.decode(bytes: rawSegment) else { return .failure(.malformedPathEncoding) }
                    if segment.utf8.contains(0) { return .failure(.nulByte) }
                    segments.append(segment)
                }
                rawPath = String(decoding: pathBytes, as: UTF8.self)
                path = "/" + segments.joined(separator: "/")
                decodedSegments = segments
            } else {
                // Nothing to decode, the usual case: the decoded path is the raw one, and when
                // nothing follows it, it is the target itself (a String is valid UTF-8 already).
                rawPath = pathBytes.count == bytes.count ? whole : String(decoding: pathBytes, as: UTF8.self)
                path = rawPath
            }
            var query = QueryParameters()
            if let questionMark {
                guard let parsed = QueryParameters(bytes: UnsafeBufferPointer(rebasing: bytes[(questionMark + 1)..<end]))
                else { return .failure(.malformedQueryEncoding) }
                if parsed.pairs.contains(where: { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }) {
                    return .failure(.nulByte)
                }
                query = parsed
            }
            return .success(RequestTarget(raw: whole, rawPath: rawPath, path: path, query: query, decodedSegments: decodedSegments))
        }
    }
}

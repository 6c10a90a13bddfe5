/// A body ready to answer GET and HEAD with, in each encoding worth sending: plain and, for text
/// that compresses, gzip, each with its ETag and its libmicrohttpd response built once.
///
/// The page's files are kept as one each; so is a page the application renders once and then
/// serves many times. Building compresses and hashes; answering only picks a variant.
public struct PreparedBody: Sendable {
    /// One encoding: its tag and its answer (a 304 queues the same answer).
    struct Variant: Sendable {
        let etag: String
        let full: PreparedResponse
    }

    let plain: Variant
    let gzip: Variant?

    /// What a body goes out with unless told otherwise: reused only after asking (its ETag).
    public static let revalidated = HTTPHeaders([("Cache-Control", CacheControl.noCache)])

    /// `headers` go on both variants (Cache-Control, say); Content-Type, ETag, Vary,
    /// Content-Encoding and a document's content policy (its own stylesheets' hashes in it) are
    /// added here. `effort`: how hard to compress, by how often bodies like this one are compressed.
    public init(_ bytes: [UInt8], contentType: String, headers: HTTPHeaders = revalidated,
                effort: CompressionEffort = .best) {
        var common = HTTPHeaders([("Content-Type", contentType)])
        for (name, value) in headers { common.add(name, value) }
        if SecurityHeaders.needsPolicy(contentType: contentType), !common.contains("Content-Security-Policy") {
            common.add("Content-Security-Policy", SecurityHeaders.contentSecurityPolicy(for: bytes))
        }
        let compressible = MediaTypes.isCompressible(contentType)
        if compressible { common.add("Vary", "Accept-Encoding") }

        func variant(_ body: [UInt8], etag: String, encoding: String?) -> Variant {
            var headers = common
            headers.add("ETag", etag)
            if let encoding { headers.add("Content-Encoding", encoding) }
            return Variant(etag: etag, full: PreparedResponse(HTTPResponse(status: 200, headers: headers, body: body)))
        }

        plain = variant(bytes, etag: EntityTag.strong(for: bytes), encoding: nil)
        if compressible, let compressed = Gzip.compress(bytes, effort: effort), compressed.count < bytes.count {
            gzip = variant(compressed, etag: EntityTag.strong(for: bytes, suffix: "-gz"), encoding: "gzip")
        } else {
            gzip = nil
        }
    }

    /// The uncompressed bytes.
    public var bytes: [UInt8] { plain.full.body }

    /// The uncompressed body's tag: changes whenever the bytes do.
    var etag: String { plain.etag }

    public var contentType: String { plain.full.headers["Content-Type"] ?? "application/octet-stream" }

    /// The content policy a document goes out with; nil for bodies that need none.
    var contentSecurityPolicy: String? { plain.full.headers["Content-Security-Policy"] }

    /// The answer to `request`: gzip when it accepts it, 304 when its `If-None-Match` names the
    /// tag of what it would get.
    public func response(to request: HTTPRequest) -> HTTPResponse {
        let variant = gzip.flatMap { StaticFiles.acceptsGzip(request.headers["Accept-Encoding"]) ? $0 : nil } ?? plain
        return HTTPResponse(prepared: variant.full, status: request.alreadyHas(etag: variant.etag) ? 304 : nil)
    }
}

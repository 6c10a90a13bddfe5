/// A complete response: status, header fields and body bytes.
///
/// `Date` and `Content-Length` are added by libmicrohttpd when the response is sent.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// A response built once and kept (static files, cached pages): sent as is, without copying.
    public var prepared: PreparedResponse?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(prepared: PreparedResponse) {
        self.status = prepared.status
        self.headers = prepared.headers
        self.body = []
        self.prepared = prepared
    }

    /// A body of UTF-8 text with its content type.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }

    /// A JSON body already encoded.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }

    /// `304 Not Modified` keeping the validator headers a cache needs.
    public static func notModified(etag: String, extraHeaders: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = extraHeaders
        headers.set("ETag", etag)
        return HTTPResponse(status: 304, headers: headers)
    }

    /// The size of the body that will be sent.
    public var bodyCount: Int { prepared?.bodyCount ?? body.count }
}

/// A complete response: status, header fields and body bytes.
///
/// `Date` and `Content-Length` are added by libmicrohttpd when the response is sent.
public struct HTTPResponse: Sendable {
    // Changing the headers or the body after the response was prepared makes the prepared
    // copy stale, so it is dropped and the response is built afresh when sent.
    public var status: Int
    public var headers: HTTPHeaders { didSet { prepared = nil } }
    public var body: [UInt8] { didSet { prepared = nil } }
    /// A response built once and kept (static files, cached pages): sent as is, without copying.
    private(set) var prepared: PreparedResponse?
    /// A body written while it is sent, instead of `body` (see `ResponseStream`).
    public private(set) var stream: ResponseStream?
    /// Sent as `headOfStream()` says.
    private(set) var isHeadOfStream = false

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A prepared response, sent with `status` (its own by default). Queued with 304 it keeps
    /// the full body's Content-Length, which is what RFC 9110 asks of a 304, and sends no body.
    public init(prepared: PreparedResponse, status: Int? = nil) {
        self.status = status ?? prepared.status
        self.headers = prepared.headers
        self.body = prepared.body
        self.prepared = prepared
    }

    /// A response whose body is written later, through `stream`, for as long as it stays open.
    public static func stream(_ stream: ResponseStream, status: Int = 200, headers: HTTPHeaders) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.stream = stream
        return response
    }

    /// The answer to HEAD for a streamed response: its status and headers, no body and no length
    /// (a stream has none), and the connection closed after it (see `Exchange`).
    func headOfStream() -> HTTPResponse {
        var head = HTTPResponse(status: status, headers: headers)
        head.isHeadOfStream = true
        return head
    }

    /// A body of UTF-8 text with its content type.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }

    /// A JSON body already encoded.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", MediaTypes.json)]), body: body)
    }

    /// `304 Not Modified` for a full response: the same headers, and the body kept only so
    /// that Content-Length states the full size, as RFC 9110 (section 8.6) allows; libmicrohttpd
    /// never sends a 304's body.
    func notModified() -> HTTPResponse {
        var response = self
        response.status = 304
        return response
    }
}

import CMicroHTTPD

/// A libmicrohttpd response built once and queued many times.
///
/// libmicrohttpd reference-counts responses and allows one to be queued on many connections
/// from many threads, so static files and cached pages skip building and copying per request.
public final class PreparedResponse: @unchecked Sendable {
    // @unchecked: the handle is an opaque C pointer, which libmicrohttpd lets any thread queue;
    // every other property is an immutable Sendable value.
    let handle: OpaquePointer
    let status: Int
    let headers: HTTPHeaders
    /// Kept so that a copy can still be built if a handler changes the headers.
    let body: [UInt8]

    public init(_ response: HTTPResponse) {
        self.handle = MHDResponseBuilder.make(response)
        self.status = response.status
        self.headers = response.headers
        self.body = response.body
    }

    deinit {
        MHD_destroy_response(handle)
    }
}

/// Turns an `HTTPResponse` into a libmicrohttpd response with the standard headers added.
enum MHDResponseBuilder {
    static func make(_ response: HTTPResponse) -> OpaquePointer {
        let handle: OpaquePointer?
        if response.isHeadOfStream {
            // Nothing is ever read: libmicrohttpd sends no body for HEAD.
            handle = MHD_create_response_from_callback(UInt64.max, 64, endAtOnce, nil, nil)
            if let handle { _ = pulldown_response_without_length(handle) }
        } else if let stream = response.stream {
            // Size unknown (MHD_SIZE_UNKNOWN, a macro Swift cannot see), so the body goes out
            // chunked, unless the stream knows its length. The response holds the stream until
            // libmicrohttpd frees it. Small blocks: a stream holds its block for as long as it lives.
            handle = MHD_create_response_from_callback(stream.length.map(UInt64.init) ?? UInt64.max,
                                                       stream.length.map { min(max($0, 1), 16 * 1024) } ?? 2048,
                                                       readStream, Unmanaged.passRetained(stream).toOpaque(), releaseStream)
        } else {
            handle = response.body.withUnsafeBytes { bytes in
                // MUST_COPY: libmicrohttpd keeps its own copy, so the Swift array may go away.
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        }
        guard let handle else { fatalError("libmicrohttpd could not allocate a response") }
        for (name, value) in response.headers {
            addHeader(handle, name, value)
        }
        for (name, value) in SecurityHeaders.all where !response.headers.contains(name) {
            addHeader(handle, name, value)
        }
        if SecurityHeaders.needsPolicy(contentType: response.headers["Content-Type"]),
           !response.headers.contains("Content-Security-Policy") {
            addHeader(handle, "Content-Security-Policy", SecurityHeaders.contentSecurityPolicy)
        }
        return handle
    }

    /// `withCString` rather than passing the strings straight to C: that implicit conversion
    /// copies a short string (most header names and values) to the heap, on every answer.
    private static func addHeader(_ handle: OpaquePointer, _ name: String, _ value: String) {
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(handle, name, value) } }
    }
}

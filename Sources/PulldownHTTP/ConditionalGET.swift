import PulldownHTTP

extension HTTPResponse {
    /// The API's conditional GET (RFC 9110, 13.1.2): 304 when the request's `If-None-Match`
    /// names this answer's ETag, else the answer itself.
    ///
    /// `/` is answered by `PreparedBody`, which does the same after it picks the encoding (plain
    /// or gzip) whose tag counts. API answers have one encoding, so they come here.
    func conditional(for request: HTTPRequest) -> HTTPResponse {
        guard let etag = headers["ETag"] else { return self }
        return EntityTag.matches(ifNoneMatch: request.headers["If-None-Match"], etag: etag) ? notModified() : self
    }
}

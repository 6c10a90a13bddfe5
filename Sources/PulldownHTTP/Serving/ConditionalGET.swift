/// Conditional GET (RFC 9110, 13.1.2), in one place for every answer: a request whose
/// `If-None-Match` names the tag of what it would get is answered 304, without the body.
extension HTTPRequest {
    /// Whether this request holds the answer tagged `etag` already.
    func alreadyHas(etag: String) -> Bool {
        EntityTag.matches(ifNoneMatch: headers["If-None-Match"], etag: etag)
    }
}

extension HTTPResponse {
    /// 304 when `request` holds this answer already (by its ETag), else the answer itself. For
    /// answers with one encoding (the API's); `PreparedBody` asks the same of the encoding it picks.
    public func conditional(for request: HTTPRequest) -> HTTPResponse {
        guard let etag = headers["ETag"], request.alreadyHas(etag: etag) else { return self }
        return notModified()
    }
}

import Foundation

/// The checks a request's head must pass before its body is read, as one pure function: the
/// refusal to send, or nil. Refusing before reading is what lets the connection close after the
/// answer with the unread body never parsed as the next request.
func requestHeadRefusal(isHTTP11: Bool, headers: HTTPHeaders, bodyLimit: Int) -> Problem? {
    if let declared = headers["Content-Length"].flatMap(Int.init), declared > bodyLimit {
        return Problem.contentTooLarge(limit: bodyLimit)
    }
    if let problem = unsupportedTransferCoding(headers.values(for: "Transfer-Encoding")) {
        // libmicrohttpd frames only `chunked`; with any other coding it waits for a body whose
        // end it cannot find (RFC 9112, section 6.3).
        return problem
    }
    if isHTTP11, !headers.contains("Host") {
        // RFC 9112, section 3.2: an HTTP/1.1 request without Host is answered 400.
        return Problem.badRequest("An HTTP/1.1 request must have a Host header.")
    }
    return nil
}

/// The refusal for a request whose transfer codings are not exactly `chunked`: 400 when chunked
/// is not the last coding (the body cannot be framed), 501 for a coding this server does not know.
func unsupportedTransferCoding(_ values: [String]) -> Problem? {
    guard !values.isEmpty else { return nil }
    let codings = values.flatMap { $0.split(separator: ",") }
        .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    if codings == ["chunked"] { return nil }
    let headers = HTTPHeaders([("Connection", "close")])
    guard codings.last == "chunked" else {
        return Problem(status: 400, title: "Bad Request",
                       detail: "The body's length cannot be known: Transfer-Encoding must end with chunked.",
                       headers: headers)
    }
    return Problem(status: 501, title: "Not Implemented",
                   detail: "Only the chunked transfer coding is supported.", headers: headers)
}

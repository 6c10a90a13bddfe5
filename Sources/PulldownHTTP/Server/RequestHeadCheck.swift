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
    var hosts = 0
    for (name, value) in headers where name.caseInsensitiveEquals("Host") {
        hosts += 1
        if hosts > 1 || !HostHeader.isValid(value) {
            // RFC 9112, section 3.2: one Host, and a valid one. The server writes it into the
            // URLs it hands out, so nothing else may pass.
            return Problem.badRequest("The Host header must be one host name or address, with an optional port "
                                      + "(RFC 9110, section 7.2).")
        }
    }
    if isHTTP11, hosts == 0 {
        // The same section: an HTTP/1.1 request without Host is answered 400.
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

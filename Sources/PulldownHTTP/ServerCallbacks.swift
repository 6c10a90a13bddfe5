import CMicroHTTPD
import Foundation

// libmicrohttpd's C callbacks, which `ServerCore.start` registers: each turns a C call into calls
// on `ServerCore` and `Exchange`. Global functions, not closures: a closure would inherit the
// isolation of the code that wrote it, and libmicrohttpd calls these on its own threads.

let keepEscapes: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    text.map { strlen($0) } ?? 0
}

/// Called once the request line is read, before any header: creates the exchange.
let requestBegan: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { context, uri, connection in
    guard let context, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    core.inFlight.add(1, ordering: .relaxed)
    let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
    let exchange = Exchange(connection: connection, rawTarget: target, server: core)
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// Called when a request ends, answered or not: logs it and releases the exchange.
let requestEnded: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode) -> Void = { context, connection, slot, _ in
    if let connection { ReadDeadlines.startReading(connection) }
    guard let context, let slot, let pointer = slot.pointee else { return }
    slot.pointee = nil
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
    core.inFlight.subtract(1, ordering: .relaxed)
    if let startedAt = exchange.startedAt {
        let elapsed = ContinuousClock.now - startedAt
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let path = exchange.rawTarget.split(separator: "?", maxSplits: 1).first.map(String.init) ?? exchange.rawTarget
        AccessLog.write(method: exchange.method, path: path, status: exchange.status,
                        bytes: exchange.bytesSent, milliseconds: milliseconds)
    }
}

/// Called when a connection opens and when it closes: keeps the read deadline's list of sockets
/// and frees the closed connection's slot in the accept loop.
let connectionChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode) -> Void = { context, connection, slot, code in
    guard let context, let connection, let slot else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        core.deadlines?.opened(connection, context: slot)
    default:
        core.deadlines?.closed(context: slot)
        core.acceptLoop.connectionClosed()
    }
}

let collectHeader: @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result = { context, _, key, value in
    guard let context, let key else { return .YES }
    let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
    exchange.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// The access handler: called with the headers, with each piece of body, at the end of the
/// body, and once more after a resume.
let handleAccess: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result = { context, connection, _, method, version, uploadData, uploadSize, slot in
    guard let context, let connection, let slot, let pointer = slot.pointee, let uploadSize else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
    let limit = core.configuration.maxBodySize

    if !exchange.headersSeen {
        // First call: headers only. Answering now would make libmicrohttpd close the
        // connection, so the answer waits for a later call (keep-alive stays on).
        exchange.headersSeen = true
        exchange.method = method.map { String(cString: $0) } ?? ""
        _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, pointer)
        if let declared = exchange.headers["Content-Length"].flatMap(Int.init), declared > limit {
            // Refuse before reading: the connection closes after the answer, so the unread
            // body never gets parsed as the next request.
            ReadDeadlines.stopReading(connection)
            exchange.answerEarly(Problem.contentTooLarge(limit: limit).response)
        } else if let problem = unsupportedTransferCoding(exchange.headers.values(for: "Transfer-Encoding")) {
            // libmicrohttpd frames only `chunked`; with any other coding it waits for a body
            // whose end it cannot find. Refuse now, before reading (RFC 9112, section 6.3).
            ReadDeadlines.stopReading(connection)
            exchange.answerEarly(problem.response)
        } else if !exchange.headers.contains("Host"), let version, strcmp(version, "HTTP/1.1") == 0 {
            // RFC 9112, section 3.2: an HTTP/1.1 request without Host is answered 400.
            ReadDeadlines.stopReading(connection)
            exchange.answerEarly(Problem.badRequest("An HTTP/1.1 request must have a Host header.").response)
        }
        return .YES
    }

    if uploadSize.pointee > 0 {
        if exchange.answer.isReading && !exchange.bodyTooLarge {
            if exchange.body.count + uploadSize.pointee > limit {
                // libmicrohttpd refuses a response queued in the middle of the body, so the
                // rest is read and dropped, and the 413 goes out once the request is complete.
                exchange.bodyTooLarge = true
                exchange.body = []
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }

    if exchange.answerAfterResume() { return .YES }
    guard exchange.answer.isReading else { return .YES }
    ReadDeadlines.stopReading(connection)
    if exchange.bodyTooLarge {
        exchange.answerEarly(Problem.contentTooLarge(limit: limit).response)
        return .YES
    }

    exchange.answer.handlerStarted()
    switch RequestTarget.parse(exchange.rawTarget) {
    case .success(let target):
        let request = HTTPRequest(method: exchange.method, target: target, headers: exchange.headers, body: exchange.body)
        exchange.body = []
        core.handler(request, Responder(exchange.answer))
    case .failure(let failure):
        exchange.answer.complete(with: Problem.badRequest("The request target is malformed (\(failure)).").response)
    }
    exchange.answerOrSuspend()
    return .YES
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

import CMicroHTTPD
import Foundation

// libmicrohttpd's C callbacks: those `ServerCore.start` registers, each turning a C call into calls
// on `ServerCore` and `Exchange`, and the content readers `MHDResponseBuilder` gives a streamed
// answer, which read its `ResponseStream`. Global functions, not closures: a closure would inherit the
// isolation of the code that wrote it, and libmicrohttpd calls these on its own threads.

let keepEscapes: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    text.map { strlen($0) } ?? 0
}

/// Called once the request line is read, before any header: creates the exchange.
let requestBegan: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { context, uri, connection in
    guard let context, let connection else { return nil }
    let daemon = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue()
    daemon.core.inFlight.add(1, ordering: .relaxed)
    let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
    let exchange = Exchange(connection: connection, rawTarget: target, daemon: daemon)
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// Called when a request ends, answered or not: sends a corked answer, logs it and releases the
/// exchange. libmicrohttpd calls it before it closes the connection or reads the next request.
let requestEnded: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode) -> Void = { context, connection, slot, _ in
    guard let context else { return }
    let core = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue().core
    if let connection { core.deadlines?.startReading(connection) }
    guard let slot, let pointer = slot.pointee else { return }
    slot.pointee = nil
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
    if exchange.corked, let connection {
        TLSRecordCork.uncork(connection, patience: Int(core.configuration.connectionTimeout))
    }
    core.requestFinished()
    if let startedAt = exchange.startedAt {
        let elapsed = core.configuration.clock.now() - startedAt
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
    let core = Unmanaged<DaemonContext>.fromOpaque(context).takeUnretainedValue().core
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        core.deadlines?.opened(connection, context: slot)
    default:
        core.deadlines?.closed(context: slot)
        core.acceptLoop.connectionClosed()
    }
}

/// Adds one header to the `HTTPHeaders` its context points to.
let collectHeader: @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result = { context, _, key, value in
    guard let context, let key else { return .YES }
    context.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// The access handler: called with the head, with each piece of body, at the end of the body,
/// and once more after a resume. Each call becomes one event of the request's `Exchange`.
let handleAccess: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result = { _, connection, _, method, version, uploadData, uploadSize, slot in
    guard let connection, let slot, let pointer = slot.pointee, let uploadSize else { return .NO }
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
    if !exchange.headRead {
        // The first call carries the head only. An answer queued now makes libmicrohttpd close
        // the connection, which is right for a refused head and wrong otherwise: the handler's
        // answer waits for the call at the end of the body (keep-alive stays on).
        var headers = HTTPHeaders(minimumCapacity: 16)
        _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, $0) }
        exchange.readHead(method: method.map { String(cString: $0) } ?? "",
                          isHTTP11: version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false, headers: headers)
    } else if uploadSize.pointee > 0 {
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                exchange.readBody(UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
            }
        }
        uploadSize.pointee = 0
    } else {
        exchange.readyToAnswer()
    }
    return .YES
}

/// Reads the next piece of a `ResponseStream` body (the response's content reader).
let readStream: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafeMutablePointer<CChar>?, Int) -> Int = { context, _, buffer, max in
    guard let context else { return MHD_CONTENT_READER_END_WITH_ERROR }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
}

/// The content reader of a HEAD answer to a stream: it ends before anything is read.
let endAtOnce: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafeMutablePointer<CChar>?, Int) -> Int = { _, _, _, _ in
    MHD_CONTENT_READER_END_OF_STREAM
}

/// Gives back the response's reference to its `ResponseStream` once libmicrohttpd frees it.
let releaseStream: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<ResponseStream>.fromOpaque(context).takeRetainedValue().ended()
}

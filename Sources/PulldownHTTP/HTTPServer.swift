import CEpollDrain
import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd.
///
/// It reads each request completely (with a body limit), hands it to one `HTTPHandler`, and
/// sends whatever the handler answers, now or later. libmicrohttpd runs the connections on
/// `threads` epoll loops of its own; handlers run on those threads, so they must not block
/// for long: a slow answer should use the `Responder` later instead.
public final class HTTPServer: Sendable {
    let core: ServerCore
    /// The port the server listens on (the one the system chose when 0 was asked for).
    public let port: UInt16

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds, starts the worker threads and begins accepting connections.
    public init(configuration: ServerConfiguration, handler: @escaping HTTPHandler) throws(StartError) {
        let socket: (fd: Int32, port: UInt16)
        do {
            socket = try ListeningSocket.open(host: configuration.host, port: configuration.port,
                                              backlog: configuration.listenBacklog)
        } catch {
            throw StartError(description: error.description)
        }
        self.core = ServerCore(configuration: configuration, handler: handler)
        self.port = socket.port
        guard core.start(listeningSocket: socket.fd) else {
            close(socket.fd)
            throw StartError(description: "the HTTP server could not start on \(configuration.host):\(socket.port)")
        }
    }

    /// A server let go without `stop()` stops now: libmicrohttpd's threads must not outlive it.
    deinit {
        core.stop()
    }

    /// Requests received and not yet finished.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting, lets in-flight requests finish for the grace period, answers any still
    /// waiting with 503, then stops the threads. Safe to call more than once.
    public func stop() {
        core.stop()
    }
}

/// The state libmicrohttpd's C callbacks reach through their context pointer. The daemon holds
/// a reference to it (taken at start, given back once the daemon has stopped), so no callback
/// can reach a freed object.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let handler: HTTPHandler
    let inFlight = Atomic<Int>(0)
    /// Answers waiting suspended; closed once the stop has answered them, after which none may
    /// suspend (libmicrohttpd aborts if it stops with a suspended connection).
    let suspended = ClosingRegistry<ExchangeAnswer>()
    /// Open streamed bodies; closed once the stop has closed them, after which a new one is
    /// closed as soon as it is attached.
    let streams = ClosingRegistry<ResponseStream>()
    /// Accepts connections and holds the connection limit (libmicrohttpd has no listening socket).
    let acceptLoop: AcceptLoop
    private let running = Mutex<RunningDaemon?>(nil)
    private let stopSequence: Mutex<StopSequence>
    /// The whole-request deadline; nil when connections may stay forever (timeout 0).
    let deadlines: ReadDeadlines?

    /// What exists only while libmicrohttpd runs.
    private struct RunningDaemon: @unchecked Sendable {
        // @unchecked: libmicrohttpd lets any thread add connections to its daemon and stop it.
        let daemon: OpaquePointer
        /// The daemon's reference to this object.
        let context: Unmanaged<ServerCore>
    }

    init(configuration: ServerConfiguration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.deadlines = configuration.connectionTimeout > 0 ? ReadDeadlines(limit: configuration.connectionTimeout) : nil
        self.stopSequence = Mutex(StopSequence(gracePeriod: configuration.stopGracePeriod))
        self.acceptLoop = AcceptLoop(limit: Int(configuration.connectionLimit))
    }

    /// Starts libmicrohttpd's threads, then accepts on `fd` (bound and listening). On failure
    /// nothing is left running and `fd` is still the caller's.
    func start(listeningSocket fd: Int32) -> Bool {
        // The workaround for libmicrohttpd's epoll loop must be in the program (epoll_drain.c).
        precondition(pulldown_epoll_drain_linked() == 1)
        let context = Unmanaged.passRetained(self)
        let pointer = context.toOpaque()
        var options: [MHD_OptionItem] = [
            option(.THREAD_POOL_SIZE, configuration.threads),
            option(.CONNECTION_TIMEOUT, Int(configuration.connectionTimeout)),
            // The accept loop holds the real limit. libmicrohttpd splits its own across the pool
            // and counts a connection only once its thread has taken it, so with the same figure
            // a burst could find one thread "full" and be closed unseen; this one is never reached.
            option(.CONNECTION_LIMIT, Int(configuration.connectionLimit) * max(1, configuration.threads)),
            option(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            // Hand the raw target to RequestTarget: libmicrohttpd's own unescaping would turn
            // %2F into a separator and hide malformed escapes.
            option(.UNESCAPE_CALLBACK, function: unsafeBitCast(keepEscapes, to: UnsafeMutableRawPointer.self), pointer),
            option(.URI_LOG_CALLBACK, function: unsafeBitCast(requestBegan, to: UnsafeMutableRawPointer.self), pointer),
            option(.NOTIFY_COMPLETED, function: unsafeBitCast(requestEnded, to: UnsafeMutableRawPointer.self), pointer),
            option(.NOTIFY_CONNECTION, function: unsafeBitCast(connectionChanged, to: UnsafeMutableRawPointer.self), pointer),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        // MHD_USE_ITC: a connection handed over with MHD_add_connection wakes its thread at once.
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_TURBO.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        let started = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, handleAccess, pointer, arguments)
            }
        }
        guard let started else {
            context.release()
            return false
        }
        // Started only now, so a failed start leaves no sweeper thread behind.
        deadlines?.start()
        let daemon = RunningDaemon(daemon: started, context: context)
        running.withLock { $0 = daemon }
        acceptLoop.start(socket: fd) { socket, address, length in
            MHD_add_connection(daemon.daemon, socket, address, length) == .YES
        }
        return true
    }

    /// Where the stop sequence is (for tests that wait on it).
    var stopPhase: StopSequence.Phase { stopSequence.withLock { $0.phase } }

    /// Carries out the `StopSequence`, measuring its periods on the configured clock.
    func stop() {
        let clock = configuration.clock
        guard stopSequence.withLock({ $0.begin(now: clock.now()) }) == .stopAccepting,
              let daemon = running.withLock({ $0 }) else { return }
        // Stop accepting: the accept loop ends and closes the listening socket. Streams never
        // finish by themselves: they are closed now, not at the end of the grace period.
        acceptLoop.stop()
        for stream in streams.close() { stream.close() }
        while true {
            let inFlight = inFlight.load(ordering: .relaxed)
            switch stopSequence.withLock({ $0.step(now: clock.now(), inFlight: inFlight) }) {
            case .wait:
                Thread.sleep(forTimeInterval: 0.005)
            case .answerWaiting:
                // A request arriving on a kept-alive connection from now on is answered 503 at once.
                for answer in suspended.close() { answer.complete(with: Self.stoppingResponse) }
            case .stopThreads:
                MHD_stop_daemon(daemon.daemon)
                deadlines?.stop()
                running.withLock { $0 = nil }
                daemon.context.release()
                return
            case .stopAccepting, .none:
                return
            }
        }
    }

    /// The answer for requests still waiting when the server stops.
    static var stoppingResponse: HTTPResponse {
        var headers = HTTPHeaders([("Retry-After", "1")])
        headers.add("Connection", "close")
        return Problem(status: 503, title: "Service Unavailable", detail: "The server is stopping.",
                       headers: headers).response
    }

    private func option(_ name: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: name, value: value, ptr_value: nil)
    }

    /// Options that take a function and its context: the function goes in `value`, as
    /// libmicrohttpd's documentation of MHD_OPTION_ARRAY asks.
    private func option(_ name: MHD_OPTION, function: UnsafeMutableRawPointer, _ context: UnsafeMutableRawPointer) -> MHD_OptionItem {
        MHD_OptionItem(option: name, value: Int(bitPattern: function), ptr_value: context)
    }
}

// MARK: - libmicrohttpd callbacks
//
// Global functions, not closures: a closure would inherit the isolation of the code that
// wrote it, and libmicrohttpd calls these on its own threads.

private let keepEscapes: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    text.map { strlen($0) } ?? 0
}

/// Called once the request line is read, before any header: creates the exchange.
private let requestBegan: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { context, uri, connection in
    guard let context, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    core.inFlight.add(1, ordering: .relaxed)
    let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
    let exchange = Exchange(connection: connection, rawTarget: target, server: core)
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// Called when a request ends, answered or not: logs it and releases the exchange.
private let requestEnded: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode) -> Void = { context, connection, slot, _ in
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
private let connectionChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode) -> Void = { context, connection, slot, code in
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

private let collectHeader: @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result = { context, _, key, value in
    guard let context, let key else { return .YES }
    let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
    exchange.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// The access handler: called with the headers, with each piece of body, at the end of the
/// body, and once more after a resume.
private let handleAccess: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result = { context, connection, _, method, version, uploadData, uploadSize, slot in
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
private func unsupportedTransferCoding(_ values: [String]) -> Problem? {
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

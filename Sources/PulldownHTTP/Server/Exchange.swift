import CMicroHTTPD
import Foundation
import Synchronization

/// One request on one connection: the driver of its `ExchangeState`. The C callbacks turn
/// libmicrohttpd's calls into its events; it carries out the actions the machine returns
/// (stop the read deadline, run the handler, queue, suspend, resume) and keeps what the access
/// log needs.
///
/// @unchecked Sendable: an answer may arrive on any thread, and everything it reaches
/// (`complete(with:)`) goes through `state`'s lock. The rest (`head`, `status`, the bytes sent)
/// is used only on the connection's thread, where libmicrohttpd makes every call for it.
final class Exchange: @unchecked Sendable {
    let rawTarget: String
    /// When the request began, for the access log; nil when there is none (reading the clock is
    /// a per-request cost).
    let startedAt: ContinuousClock.Instant?
    let connection: Connection
    private let server: ServerCore
    private let daemon: DaemonContext
    private let state = Mutex(ExchangeState<HTTPResponse>())

    /// The method and headers, once the head is read.
    private(set) var method = ""
    private(set) var headers = HTTPHeaders(minimumCapacity: 16)
    private(set) var headRead = false
    /// The answer's status and body length, for the access log; a streamed body counts what it
    /// has sent.
    private(set) var status: Int?
    var bytesSent: Int { stream?.bytesSent ?? fixedBodyBytes }
    private var fixedBodyBytes = 0
    private var stream: ResponseStream?
    /// The answer was held back in the TLS session, to go out as one record once complete.
    private(set) var corked = false

    init(connection: OpaquePointer, rawTarget: String, daemon: DaemonContext) {
        self.rawTarget = rawTarget
        self.startedAt = daemon.core.configuration.accessLog ? daemon.core.configuration.clock.now() : nil
        self.connection = Connection(pointer: connection)
        self.server = daemon.core
        self.daemon = daemon
    }

    // MARK: Events from the C callbacks, on the connection's thread

    /// The head arrived (the first call of the access handler): checks it, and refuses it now
    /// if it must be refused before its body is read.
    func readHead(method: String, isHTTP11: Bool, headers: HTTPHeaders) {
        self.method = method
        self.headers = headers
        headRead = true
        let refusal = requestHeadRefusal(isHTTP11: isHTTP11, headers: headers, bodyLimit: server.configuration.maxBodySize)
        perform(state.withLock { $0.headRead(refusal: refusal?.response) })
    }

    func readBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        let limit = server.configuration.maxBodySize
        state.withLock { $0.bodyRead(bytes, limit: limit) }
    }

    /// The request is complete, or the connection was resumed with its answer.
    func readyToAnswer() {
        perform(state.withLock { $0.readyToAnswer() })
    }

    // MARK: The answer, from any thread

    /// Delivers the answer. The first answer wins; a late one is dropped.
    func complete(with response: HTTPResponse) {
        perform(state.withLock { $0.complete(with: response) })
    }

    // MARK: Actions

    private func perform(_ action: ExchangeState<HTTPResponse>.Action) {
        switch action {
        case .none:
            break
        case .refuse(let response):
            ReadDeadlines.stopReading(connection.pointer)
            queue(response)
        case .refuseBodyTooLarge:
            ReadDeadlines.stopReading(connection.pointer)
            queue(Problem.contentTooLarge(limit: server.configuration.maxBodySize).response)
        case .handle(let body):
            ReadDeadlines.stopReading(connection.pointer)
            handle(body: body)
            perform(state.withLock { $0.handlerReturned() })
        case .queue(let response):
            queue(response)
        case .suspend:
            guard server.suspended.register(self) else {
                perform(state.withLock { $0.suspensionRefused(stoppingAnswer: ServerCore.stoppingResponse) })
                return
            }
            MHD_suspend_connection(connection.pointer)
            perform(state.withLock { $0.suspended() })
        case .resume:
            server.suspended.unregister(self)
            MHD_resume_connection(connection.pointer)
        }
    }

    private func handle(body: [UInt8]) {
        switch RequestTarget.parse(rawTarget) {
        case .success(let target):
            let peer = pulldown_connection_info(connection.pointer, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr
                .flatMap { PeerAddress(UnsafePointer($0)) }
            daemon.handler(HTTPRequest(method: method, target: target, headers: headers, body: body, isTLS: daemon.isTLS,
                                       peer: peer), Responder(self))
        case .failure(let failure):
            complete(with: Problem.badRequest("The request target is malformed (\(failure)).").response)
        }
    }

    private func queue(_ response: HTTPResponse) {
        status = response.status
        // HEAD and 304 answers state the body's length but send no body.
        fixedBodyBytes = method == "HEAD" || response.status == 304 ? 0 : response.body.count
        if method == "HEAD", let unsent = response.stream {
            // A HEAD answer has no body (RFC 9110, 9.3.2), whatever the route answers GET with.
            // A streamed body would go out chunked, and libmicrohttpd 0.9.75 sends a chunked
            // HEAD answer's last chunk (`0\r\n\r\n`), which a keep-alive client reads as the
            // start of its next answer. Its owner hears that it ended.
            unsent.ended()
            return connection.queue(response.headOfStream())
        }
        stream = response.stream
        response.stream?.attach(to: connection, server: server)
        if daemon.isTLS && stream == nil {
            corked = TLSRecordCork.cork(connection.pointer, answerBytes: TLSRecordCork.estimatedSize(of: response, sendsBody: fixedBodyBytes > 0))
        }
        connection.queue(response)
    }
}

/// A libmicrohttpd connection. Any thread may resume it; answers are queued on its own thread.
struct Connection: @unchecked Sendable {
    // @unchecked: an opaque C pointer; libmicrohttpd allows MHD_resume_connection from any thread.
    let pointer: OpaquePointer

    func queue(_ response: HTTPResponse) {
        if let prepared = response.prepared {
            _ = MHD_queue_response(pointer, UInt32(response.status), prepared.handle)
        } else {
            let handle = MHDResponseBuilder.make(response)
            _ = MHD_queue_response(pointer, UInt32(response.status), handle)
            MHD_destroy_response(handle)
        }
    }
}

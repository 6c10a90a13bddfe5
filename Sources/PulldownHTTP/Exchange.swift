import CMicroHTTPD
import Foundation
import Synchronization

/// One request on one connection, from its request line to the end of its answer, as the
/// connection's thread sees it: what is read, what was answered, for the access log.
///
/// libmicrohttpd calls the access handler several times per request (headers, body pieces, end
/// of body, again after a resume), always on the connection's thread; this object carries what
/// those calls share. The answer may come from any thread: it arrives through `answer`.
final class Exchange {
    let rawTarget: String
    /// When the request began, for the access log; nil when there is none (reading the clock is
    /// a per-request cost).
    let startedAt: ContinuousClock.Instant?
    let answer: ExchangeAnswer

    var headersSeen = false
    var method = ""
    var headers = HTTPHeaders(minimumCapacity: 16)
    var body: [UInt8] = []
    /// The body passed the limit; what is left of it is dropped and the answer is 413.
    var bodyTooLarge = false
    var status: Int?
    /// The body's length, for the access log; a streamed body counts what it has sent.
    var bytesSent: Int { stream?.bytesSent ?? fixedBodyBytes }
    private var fixedBodyBytes = 0
    private var stream: ResponseStream?

    init(connection: OpaquePointer, rawTarget: String, server: ServerCore) {
        self.rawTarget = rawTarget
        self.startedAt = server.configuration.accessLog ? ContinuousClock.now : nil
        self.answer = ExchangeAnswer(connection: connection, server: server)
    }

    /// Queues an answer right away (errors found while reading).
    func answerEarly(_ response: HTTPResponse) {
        queue(answer.early(response))
    }

    /// The handler has returned: queues its answer, or leaves the connection suspended.
    func answerOrSuspend() {
        if let response = answer.handlerReturned() { queue(response) }
    }

    /// True when this call of the access handler is the one after a resume; its answer is queued.
    func answerAfterResume() -> Bool {
        guard let response = answer.resumeArrived() else { return false }
        queue(response)
        return true
    }

    private func queue(_ response: HTTPResponse) {
        status = response.status
        // HEAD and 304 answers state the body's length but send no body.
        fixedBodyBytes = method == "HEAD" || response.status == 304 ? 0 : response.body.count
        stream = response.stream
        response.stream?.attach(to: answer.connection, server: answer.server)
        answer.connection.queue(response)
    }
}

/// Where the answer to one exchange arrives, from any thread. Holds the request's life
/// (`ExchangeState`) behind a lock and makes the C calls its actions ask for after releasing it.
final class ExchangeAnswer: Sendable {
    let connection: Connection
    let server: ServerCore
    private let state = Mutex(ExchangeState())

    init(connection: OpaquePointer, server: ServerCore) {
        self.connection = Connection(pointer: connection)
        self.server = server
    }

    var isReading: Bool { state.withLock { $0.isReading } }

    func handlerStarted() {
        state.withLock { $0.handlerStarted() }
    }

    /// Delivers the answer, from any thread. The first answer wins; a late one is dropped.
    func complete(with response: HTTPResponse) {
        perform(state.withLock { $0.complete(with: response) })
    }

    // The rest runs on the connection's thread; what they return is queued by `Exchange`.

    fileprivate func early(_ response: HTTPResponse) -> HTTPResponse {
        state.withLock { $0.answerEarly(response) }.response!
    }

    fileprivate func handlerReturned() -> HTTPResponse? {
        let action = state.withLock { $0.handlerReturned() }
        guard case .suspend = action else { return action.response }
        guard server.suspended.register(self) else {
            return state.withLock { $0.suspensionRefused(stoppingAnswer: ServerCore.stoppingResponse) }.response
        }
        MHD_suspend_connection(connection.pointer)
        perform(state.withLock { $0.suspended() })
        return nil
    }

    fileprivate func resumeArrived() -> HTTPResponse? {
        state.withLock { $0.resumeArrived() }?.response
    }

    private func perform(_ action: ExchangeState.Action) {
        guard case .resume = action else { return }
        server.suspended.unregister(self)
        MHD_resume_connection(connection.pointer)
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

extension ExchangeState.Action {
    /// The answer to queue, for `.queue`.
    var response: HTTPResponse? {
        if case .queue(let response) = self { return response }
        return nil
    }
}

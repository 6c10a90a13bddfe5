import CMicroHTTPD
import Foundation
import Synchronization

/// One request on one connection, from its request line to the end of its answer.
///
/// libmicrohttpd calls the access handler several times per request (headers, body pieces,
/// end of body, and again after a resume); this object carries what those calls share.
/// The connection's own thread touches the reading fields; `phase` is shared with whichever
/// thread answers, so it sits behind a lock.
final class Exchange: @unchecked Sendable {
    enum Phase {
        /// Headers and body still arriving.
        case reading
        /// The handler is running on the connection's thread.
        case handling
        /// The handler returned without answering; the connection is suspended.
        case suspended
        /// An answer arrived for a suspended connection, which was resumed to send it.
        case resumed
        /// The answer was queued.
        case answered
    }

    let connection: OpaquePointer
    let rawTarget: String
    let startedAt = ContinuousClock.now
    unowned let server: ServerCore

    // Touched only on the connection's thread.
    var headersSeen = false
    var method = ""
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// The body passed the limit; what is left of it is dropped and the answer is 413.
    var bodyTooLarge = false
    var status: Int?
    var bytesSent = 0

    private struct Shared {
        var phase = Phase.reading
        var answer: HTTPResponse?
    }
    private let shared = Mutex(Shared())

    init(connection: OpaquePointer, rawTarget: String, server: ServerCore) {
        self.connection = connection
        self.rawTarget = rawTarget
        self.server = server
    }

    /// Called by the connection's thread once the handler has returned: queues the answer if
    /// there is one, or suspends the connection until `complete` brings it.
    func answerOrSuspend() {
        let answer: HTTPResponse? = shared.withLock { state in
            if let answer = state.answer {
                state.phase = .answered
                return answer
            }
            guard server.didSuspend(self) else {
                // The server is stopping: suspending now would abort it, so answer at once.
                state.phase = .answered
                state.answer = ServerCore.stoppingResponse
                return state.answer
            }
            state.phase = .suspended
            MHD_suspend_connection(connection)
            return nil
        }
        if let answer { queue(answer) }
    }

    /// Called after a resume, on the connection's thread: sends the answer that woke it.
    func answerAfterResume() -> Bool {
        let answer: HTTPResponse? = shared.withLock { state in
            guard state.phase == .resumed, let answer = state.answer else { return nil }
            state.phase = .answered
            return answer
        }
        guard let answer else { return false }
        queue(answer)
        return true
    }

    func beginHandling() {
        shared.withLock { $0.phase = .handling }
    }

    var isReading: Bool {
        shared.withLock { $0.phase == .reading }
    }

    /// Delivers the answer, from any thread. The first answer wins; a late one is dropped.
    func complete(with response: HTTPResponse) {
        shared.withLock { state in
            guard state.answer == nil else { return }
            switch state.phase {
            case .reading, .handling:
                state.answer = response
            case .suspended:
                state.answer = response
                state.phase = .resumed
                server.didResume(self)
                MHD_resume_connection(connection)
            case .resumed, .answered:
                break
            }
        }
    }

    /// Queues an answer right away, on the connection's thread (errors found while reading).
    func queueNow(_ response: HTTPResponse) {
        shared.withLock { state in
            state.answer = response
            state.phase = .answered
        }
        queue(response)
    }

    private func queue(_ response: HTTPResponse) {
        status = response.status
        // HEAD and 304 answers state the body's length but send no body.
        bytesSent = method == "HEAD" || response.status == 304 ? 0 : response.body.count
        if let prepared = response.prepared {
            _ = MHD_queue_response(connection, UInt32(response.status), prepared.handle)
        } else {
            let handle = MHDResponseBuilder.make(response)
            _ = MHD_queue_response(connection, UInt32(response.status), handle)
            MHD_destroy_response(handle)
        }
    }
}

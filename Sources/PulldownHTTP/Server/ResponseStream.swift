import CMicroHTTPD
import Synchronization

/// A response body that is written while it is sent: send `HTTPResponse.stream(_:headers:)`
/// once, then `write` whenever there is something to say, from any thread, and `close` at the
/// end. Between writes the connection waits suspended and holds no server thread.
///
/// The server closes every open stream when it stops. `onEnd` tells the owner when the body has
/// ended, because it was closed or because the client went away (a client that leaves is noticed
/// at the next write, since a suspended connection is not watched).
public final class ResponseStream: Sendable {
    private struct Shared {
        var state: ResponseStreamState
        /// The connection, once the response is queued on it.
        var connection: Connection?
        var server: ServerCore?
        var onEnd: (@Sendable () -> Void)?
        var hasEnded = false
    }

    private let shared: Mutex<Shared>
    private let sent = Atomic<Int>(0)
    /// The body's length when it is known (a paced body): it goes out with `Content-Length`
    /// instead of chunked, and ends once that many bytes were sent.
    let length: Int?

    /// `maxPendingBytes`: how far a slow reader may fall behind before the stream is closed.
    public init(maxPendingBytes: Int = 256 * 1024, length: Int? = nil) {
        shared = Mutex(Shared(state: ResponseStreamState(maxPendingBytes: maxPendingBytes)))
        self.length = length
    }

    /// Appends bytes to the body. Arrays are shared, not copied: write one event to many streams
    /// as one array.
    public func write(_ bytes: [UInt8]) {
        wake(shared.withLock { ($0.state.write(bytes), $0.connection) })
    }

    /// Appends bytes without waking the connection; `wake()` sends them. For a writer that fills
    /// many streams at once and wakes them in small groups.
    public func enqueue(_ bytes: [UInt8]) {
        shared.withLock { $0.state.append(bytes) }
    }

    /// Resumes the connection if it waits with something to send.
    public func wake() {
        wake(shared.withLock { ($0.state.wake(), $0.connection) })
    }

    /// Ends the body once what was written has gone out. Later writes are dropped.
    public func close() {
        wake(shared.withLock { ($0.state.close(), $0.connection) })
    }

    public var isClosed: Bool { shared.withLock { $0.state.isClosed } }

    /// Bytes handed to libmicrohttpd so far (the access log's figure).
    var bytesSent: Int { sent.load(ordering: .relaxed) }

    /// Called once, on any thread, when the body has ended; at once if it already has.
    public func onEnd(_ handler: @escaping @Sendable () -> Void) {
        let ended = shared.withLock { shared in
            if !shared.hasEnded { shared.onEnd = handler }
            return shared.hasEnded
        }
        if ended { handler() }
    }

    private func wake(_ result: (ResponseStreamState.Wake, Connection?)) {
        guard result.0 == .resume, let connection = result.1 else { return }
        MHD_resume_connection(connection.pointer)
    }

    // MARK: The server's side

    /// The response was queued on `connection`: from now on writes resume it. A server that is
    /// stopping closes the stream at once.
    func attach(to connection: Connection, server: ServerCore) {
        shared.withLock {
            $0.connection = connection
            $0.server = server
        }
        if !server.streams.register(self) { close() }
    }

    /// libmicrohttpd's content reader, on the connection's thread.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let (result, connection) = shared.withLock { ($0.state.read(into: buffer), $0.connection) }
        switch result {
        case .wrote(let count):
            sent.add(count, ordering: .relaxed)
            return count
        case .end:
            return MHD_CONTENT_READER_END_OF_STREAM
        case .suspend:
            // The pattern microhttpd.h prescribes for "no data yet": suspend, then return 0.
            // Returning 0 without suspending would make libmicrohttpd call again at once.
            guard let connection else { preconditionFailure("a stream is read before it is attached") }
            MHD_suspend_connection(connection.pointer)
            wake((shared.withLock { $0.state.suspended() }, connection))
            return 0
        }
    }

    /// libmicrohttpd let go of the response: the body ended or the client left.
    func ended() {
        close()
        let (server, handler) = shared.withLock { shared in
            defer { shared.onEnd = nil }
            shared.hasEnded = true
            return (shared.server, shared.onEnd)
        }
        server?.streams.unregister(self)
        handler?()
    }
}

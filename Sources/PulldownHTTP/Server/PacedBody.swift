import Dispatch
import Synchronization

/// A complete answer sent slowly (`Pacing`): its head at once, its body in slices with a timer
/// between them, as `PacingState` schedules them. Between slices the connection waits
/// suspended, as a `ResponseStream` does, and holds no server thread; the timers of every paced
/// body share one queue. The body keeps its `Content-Length`.
public enum PacedBody {
    /// `response` paced for `request`; unchanged when there is nothing to pace: no pacing, no
    /// body (HEAD, 304, 204), or a body that is already a stream.
    public static func response(_ response: HTTPResponse, to request: HTTPRequest, pacing: Pacing,
                                clock: any ServerClock = SystemServerClock()) -> HTTPResponse {
        guard !pacing.isNone, request.method != "HEAD", response.stream == nil, !response.body.isEmpty,
              response.status >= 200, response.status != 204, response.status != 304 else { return response }
        let body = response.body
        let stream = ResponseStream(maxPendingBytes: body.count, length: body.count)
        Pacer(body: body, stream: stream, state: PacingState(length: body.count, pacing: pacing, start: clock.now()),
              clock: clock).step()
        return .stream(stream, status: response.status, headers: response.headers)
    }
}

/// Carries out one body's `PacingState`: writes what is due, then sleeps on the queue until the
/// next slice is.
private final class Pacer: Sendable {
    private static let queue = DispatchQueue(label: "pulldown.pacing", qos: .userInitiated)

    private let body: [UInt8]
    private let stream: ResponseStream
    private let state: Mutex<PacingState>
    private let clock: any ServerClock

    init(body: [UInt8], stream: ResponseStream, state: PacingState, clock: any ServerClock) {
        self.body = body
        self.stream = stream
        self.state = Mutex(state)
        self.clock = clock
    }

    func step() {
        while true {
            // Closed: the client went away, or the server is stopping.
            if stream.isClosed { return }
            switch state.withLock({ $0.next(now: clock.now()) }) {
            case .write(let range):
                stream.write(Array(body[range]))
            case .wait(let until):
                let delay = max(.zero, until - clock.now())
                let nanoseconds = Int(min(PacingState.seconds(delay) * 1e9, 1e15))
                Self.queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.step() }
                return
            case .finish:
                // libmicrohttpd ends the body once `length` bytes went out.
                return
            }
        }
    }
}

import Dispatch
import Synchronization

/// A complete answer sent slowly (`Pacing`): its head at once, its body in slices with a timer
/// between them, as `PacingState` schedules them. Between slices the connection waits
/// suspended, as a `ResponseStream` does, and holds no server thread; every paced body shares
/// one timer (`PacingTicker`). The body keeps its `Content-Length`.
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

/// Carries out one body's `PacingState`: writes what is due, then waits for a tick of the
/// `PacingTicker` at which the next slice is.
private final class Pacer: Sendable {
    private let body: [UInt8]
    private let stream: ResponseStream
    private let state: Mutex<PacingState>
    let clock: any ServerClock

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
                return PacingTicker.shared.wake(self, at: until)
            case .finish:
                // libmicrohttpd ends the body once `length` bytes went out.
                return
            }
        }
    }
}

/// One timer for every paced body: while any waits, it ticks every `interval` and steps the
/// bodies whose next slice is due. A timer per slice would wake a thread, and a server thread
/// to resume the connection, thousands of times a second for a thousand slow clients;
/// ticking, each tick's slices go out together, and a server thread that wakes resumes many
/// connections at once (libmicrohttpd looks through every suspended connection each time).
/// A slice goes out up to one interval late; the schedule is fixed, so lateness never adds up.
private final class PacingTicker: @unchecked Sendable {
    // @unchecked: `waiting` and `timer` are touched only on `queue`.
    static let shared = PacingTicker()
    static let interval = DispatchTimeInterval.milliseconds(20)

    private let queue = DispatchQueue(label: "pulldown.pacing", qos: .userInitiated)
    private var waiting: [(at: ContinuousClock.Instant, pacer: Pacer)] = []
    private var timer: (any DispatchSourceTimer)?

    /// Steps `pacer` at the first tick at or after `instant`.
    func wake(_ pacer: Pacer, at instant: ContinuousClock.Instant) {
        queue.async {
            self.waiting.append((instant, pacer))
            guard self.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(2))
            timer.setEventHandler { self.tick() }
            timer.resume()
            self.timer = timer
        }
    }

    private func tick() {
        var due: [Pacer] = []
        waiting.removeAll { entry in
            let isDue = entry.at <= entry.pacer.clock.now()
            if isDue { due.append(entry.pacer) }
            return isDue
        }
        // Steps that wait again append to `waiting` later on this queue, never during the loop.
        for pacer in due { pacer.step() }
        if waiting.isEmpty && due.isEmpty {
            timer?.cancel()
            timer = nil
        }
    }
}

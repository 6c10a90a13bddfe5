/// Which daemon a new connection on a TLS port goes to, decided by its first byte, as a pure
/// state machine (`ProtocolSniffer` drives it).
///
/// Every TLS connection opens with a ClientHello, a record of type handshake (byte 22); an HTTP
/// request opens with its method's first letter. A connection that sends nothing within the
/// timeout, or closes first, is closed here; libmicrohttpd never sees it. `Peer` is what the
/// driver keeps for a connection until it hands it over (its address).
struct ProtocolSnifferState<Peer> {
    enum Route: Equatable {
        case tls
        case cleartext
    }

    enum Action {
        case none
        /// Hand the socket and its peer to the daemon for `Route`.
        case handOver(socket: Int32, peer: Peer, route: Route)
        /// Close the socket: the client left, or sent nothing in time.
        case close(socket: Int32)
    }

    /// The first byte of every TLS record that carries a handshake message.
    static var handshakeRecord: UInt8 { 22 }

    static func route(firstByte: UInt8) -> Route {
        firstByte == handshakeRecord ? .tls : .cleartext
    }

    /// How long a connection may stay silent before its first byte; nil: as long as it likes.
    let timeout: Duration?
    private var waiting: [Int32: (number: Int, peer: Peer)] = [:]
    /// Deadlines in the order they were set (one timeout for all, so also in time order). A
    /// socket number comes back once closed, so each entry names the arrival it was set for.
    private var deadlines: [(socket: Int32, number: Int, at: ContinuousClock.Instant)] = []
    private var deadlinesStart = 0
    private var arrivals = 0

    init(timeout: Duration?) {
        self.timeout = timeout
    }

    /// Sockets waiting for their first byte.
    var waitingCount: Int { waiting.count }

    /// When the earliest waiting socket's time runs out; nil when none can.
    var nextDeadline: ContinuousClock.Instant? {
        deadlines[deadlinesStart...].first { waiting[$0.socket]?.number == $0.number }?.at
    }

    /// A connection was accepted: it waits for its first byte from `now`. True when its deadline
    /// is now the earliest, so a driver waiting without one must wake to wait for it (later
    /// arrivals end later: one timeout for all).
    @discardableResult
    mutating func added(socket: Int32, peer: Peer, now: ContinuousClock.Instant) -> Bool {
        let hadDeadline = nextDeadline != nil
        arrivals += 1
        waiting[socket] = (arrivals, peer)
        guard let timeout else { return false }
        deadlines.append((socket, arrivals, now + timeout))
        return !hadDeadline
    }

    /// The socket became readable: `firstByte` is what it sent first (peeked, not read), nil
    /// when it closed or failed before sending anything.
    mutating func read(socket: Int32, firstByte: UInt8?) -> Action {
        guard let entry = waiting.removeValue(forKey: socket) else { return .none }
        guard let firstByte else { return .close(socket: socket) }
        return .handOver(socket: socket, peer: entry.peer, route: Self.route(firstByte: firstByte))
    }

    /// The sockets whose time ran out by `now`: close them.
    mutating func expired(now: ContinuousClock.Instant) -> [Int32] {
        var late: [Int32] = []
        while deadlinesStart < deadlines.count, deadlines[deadlinesStart].at <= now {
            let deadline = deadlines[deadlinesStart]
            deadlinesStart += 1
            if waiting[deadline.socket]?.number == deadline.number {
                waiting[deadline.socket] = nil
                late.append(deadline.socket)
            }
        }
        // Drop the spent entries now and then, not on every call.
        if deadlinesStart > 64 && deadlinesStart * 2 > deadlines.count {
            deadlines.removeFirst(deadlinesStart)
            deadlinesStart = 0
        }
        return late
    }

    /// The server stops: every socket still waiting is to be closed.
    mutating func stop() -> [Int32] {
        defer {
            waiting = [:]
            deadlines = []
            deadlinesStart = 0
        }
        return Array(waiting.keys)
    }
}

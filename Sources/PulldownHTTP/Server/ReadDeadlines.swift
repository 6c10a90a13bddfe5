import CMicroHTTPD
import Foundation
import Synchronization

/// Cuts off clients that take too long to send a request (slowloris, slow bodies).
///
/// libmicrohttpd's connection timeout counts silence, so a client that sends one byte a second is
/// never silent and holds its connection, and its share of the connection limit, for as long as
/// it likes. Here a connection must deliver a whole request, head and body, within `limit` of
/// opening or of the end of its previous answer. Past that its socket is shut down, which
/// libmicrohttpd takes for the client leaving: it closes the connection on its own thread.
///
/// A connection's reading time lives in its socket context and is set with atomics, so requests
/// take no lock; the lock guards only the list of open connections, which the sweeper walks.
/// Time is the server's clock, so a test moves the sweeper with a `ManualServerClock`.
final class ReadDeadlines: Sendable {
    /// One open connection: its socket, and since when it has been reading (0: not reading).
    final class Connection: Sendable {
        let fd: Int32
        let readingSince = Atomic<UInt64>(0)

        init(fd: Int32) {
            self.fd = fd
        }
    }

    private let limitNanoseconds: UInt64
    private let clock: any ServerClock
    /// Reading times are nanoseconds from here on `clock`, to fit an atomic.
    private let origin: ContinuousClock.Instant
    private let open = Mutex<[ObjectIdentifier: Connection]>([:])
    private let stopped = Atomic<Bool>(false)
    /// Signalled by `stop()`: the sweeper waits on it between sweeps.
    private let wake = DispatchSemaphore(value: 0)

    init(limit seconds: UInt32, clock: any ServerClock) {
        limitNanoseconds = UInt64(seconds) * 1_000_000_000
        self.clock = clock
        origin = clock.now()
    }

    /// Starts the sweeper thread; `stop()` ends it.
    func start() {
        // Read here, not on the new thread: a clock moved before that thread runs is seen.
        let started = clock.now()
        let thread = Thread { [self] in sweep(from: started) }
        thread.name = "pulldown.read-deadlines"
        thread.start()
    }

    /// Nanoseconds since `origin`, never 0 (which means not reading).
    private func nanoseconds(at instant: ContinuousClock.Instant) -> UInt64 {
        UInt64(clamping: max(1, origin.duration(to: instant).nanoseconds))
    }

    /// A connection opened: it starts reading its first request now.
    func opened(_ connection: OpaquePointer, context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let fd = pulldown_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
        slot.pointee = Unmanaged.passRetained(watch(fd: fd)).toOpaque()
    }

    /// Puts `fd` on the list, reading from now.
    func watch(fd: Int32) -> Connection {
        let connection = Connection(fd: fd)
        connection.readingSince.store(nanoseconds(at: clock.now()), ordering: .relaxed)
        open.withLock { $0[ObjectIdentifier(connection)] = connection }
        return connection
    }

    /// A connection is closing. libmicrohttpd closes the socket after this returns, and the
    /// sweeper only shuts sockets down under the same lock, so it never touches a reused descriptor.
    func closed(context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let pointer = slot.pointee else { return }
        slot.pointee = nil
        let connection = Unmanaged<Connection>.fromOpaque(pointer).takeRetainedValue()
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// The request on `connection` is complete (or answered early): no deadline while it is served.
    static func stopReading(_ connection: OpaquePointer) {
        watched(connection)?.readingSince.store(0, ordering: .relaxed)
    }

    /// The answer went out: the next request on this kept-alive connection is due within the limit.
    func startReading(_ connection: OpaquePointer) {
        Self.watched(connection)?.readingSince.store(nanoseconds(at: clock.now()), ordering: .relaxed)
    }

    private static func watched(_ connection: OpaquePointer) -> Connection? {
        guard let context = pulldown_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context
        else { return nil }
        return Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
    }

    /// Ends the sweeper. Called after libmicrohttpd stopped, when every connection has been
    /// reported closed; the list is emptied anyway so a last sweep can touch no descriptor.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        open.withLock { $0.removeAll() }
        wake.signal()
    }

    private func sweep(from started: ContinuousClock.Instant) {
        let period = Duration.nanoseconds(max(50_000_000, min(250_000_000, limitNanoseconds / 4)))
        var now = started
        while true {
            // The next sweep is due a period after the time the last one read, so a clock moved
            // while a sweep ran is seen by the next at once.
            let due = now + period
            while !stopped.load(ordering: .relaxed), clock.now() < due {
                clock.wait(for: wake, until: due)
            }
            if stopped.load(ordering: .relaxed) { return }
            now = clock.now()
            let reached = nanoseconds(at: now)
            open.withLock { connections in
                for connection in connections.values {
                    let since = connection.readingSince.load(ordering: .relaxed)
                    guard since != 0, reached > since, reached - since > limitNanoseconds, connection.fd >= 0,
                          connection.readingSince.compareExchange(expected: since, desired: 0, ordering: .relaxed).exchanged
                    else { continue }
                    shutdown(connection.fd, Int32(SHUT_RDWR))
                }
            }
        }
    }
}

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
/// A connection's clock lives in its socket context and is set with atomics, so requests take no
/// lock; the lock guards only the list of open connections, which the sweeper walks.
final class ReadDeadlines: Sendable {
    /// One open connection: its socket, and since when it has been reading (0: not reading).
    final class Clock: Sendable {
        let fd: Int32
        let readingSince = Atomic<UInt64>(0)

        init(fd: Int32) {
            self.fd = fd
        }
    }

    private let limitNanoseconds: UInt64
    private let open = Mutex<[ObjectIdentifier: Clock]>([:])
    private let stopped = Atomic<Bool>(false)

    init(limit seconds: UInt32) {
        limitNanoseconds = UInt64(seconds) * 1_000_000_000
    }

    /// Starts the sweeper thread; `stop()` ends it.
    func start() {
        let thread = Thread { [self] in sweep() }
        thread.name = "pulldown.read-deadlines"
        thread.start()
    }

    static func now() -> UInt64 {
        max(1, DispatchTime.now().uptimeNanoseconds)
    }

    /// A connection opened: it starts reading its first request now.
    func opened(_ connection: OpaquePointer, context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let fd = pulldown_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
        let clock = Clock(fd: fd)
        clock.readingSince.store(Self.now(), ordering: .relaxed)
        open.withLock { $0[ObjectIdentifier(clock)] = clock }
        slot.pointee = Unmanaged.passRetained(clock).toOpaque()
    }

    /// A connection is closing. libmicrohttpd closes the socket after this returns, and the
    /// sweeper only shuts sockets down under the same lock, so it never touches a reused descriptor.
    func closed(context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let pointer = slot.pointee else { return }
        slot.pointee = nil
        let clock = Unmanaged<Clock>.fromOpaque(pointer).takeRetainedValue()
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(clock)) }
    }

    /// The request on `connection` is complete (or answered early): no deadline while it is served.
    static func stopReading(_ connection: OpaquePointer) {
        clock(of: connection)?.readingSince.store(0, ordering: .relaxed)
    }

    /// The answer went out: the next request on this kept-alive connection is due within the limit.
    static func startReading(_ connection: OpaquePointer) {
        clock(of: connection)?.readingSince.store(now(), ordering: .relaxed)
    }

    private static func clock(of connection: OpaquePointer) -> Clock? {
        guard let context = pulldown_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context
        else { return nil }
        return Unmanaged<Clock>.fromOpaque(context).takeUnretainedValue()
    }

    /// Ends the sweeper. Called after libmicrohttpd stopped, when every connection has been
    /// reported closed; the list is emptied anyway so a last sweep can touch no descriptor.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        open.withLock { $0.removeAll() }
    }

    private func sweep() {
        let interval = max(0.05, min(0.25, Double(limitNanoseconds) / 4e9))
        while !stopped.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: interval)
            let now = Self.now()
            open.withLock { clocks in
                for clock in clocks.values {
                    let since = clock.readingSince.load(ordering: .relaxed)
                    guard since != 0, now > since, now - since > limitNanoseconds, clock.fd >= 0,
                          clock.readingSince.compareExchange(expected: since, desired: 0, ordering: .relaxed).exchanged
                    else { continue }
                    shutdown(clock.fd, Int32(SHUT_RDWR))
                }
            }
        }
    }
}

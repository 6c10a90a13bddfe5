import CLibPQ
import Foundation
import Synchronization

/// Hears other processes' inserts: LISTEN on a connection of its own, watched by one thread
/// (poll() on the socket, then PQconsumeInput / PQnotifies).
///
/// A notification's payload is "<instance>:<largest new id>"; our own are ignored. When the
/// connection is lost, notifications sent meanwhile are lost with it, so after reconnecting the
/// handlers hear nil ("read again").
final class PGListener: Sendable {
    private let settings: PGSettings
    private let channel: String
    private let instance: String
    private let state: Mutex<State>

    private struct State {
        /// The connection `init` opened, until the listening thread takes it over.
        var firstConnection: PGConnection?
        var handlers: [@Sendable (Int64?) -> Void] = []
        var stopped = false
    }

    /// How long the thread sleeps between reconnection attempts and how often it checks `stop()`.
    static let retryInterval: TimeInterval = 0.5
    static let pollMilliseconds: Int32 = 250

    /// Connects and LISTENs now, so nothing inserted after `init` returns can be missed.
    init(settings: PGSettings, channel: String, instance: String) throws(StoreError) {
        self.settings = settings
        self.channel = channel
        self.instance = instance
        let connection = try Self.listen(settings: settings, channel: channel)
        self.state = Mutex(State(firstConnection: connection))
    }

    func add(_ handler: @escaping @Sendable (Int64?) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "pulldown.pg-listener"
        thread.start()
    }

    /// The thread ends within one poll interval and closes its connection.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private static func listen(settings: PGSettings, channel: String) throws(StoreError) -> PGConnection {
        let connection = try PGConnection(settings: settings)
        try connection.execute("LISTEN \(channel)")
        return connection
    }

    private func deliver(_ newest: Int64?) {
        let handlers = state.withLock { $0.handlers }
        handlers.forEach { $0(newest) }
    }

    /// The listening thread: the only user of its connection.
    private func run() {
        var connection = state.withLock { state in
            defer { state.firstConnection = nil }
            return state.firstConnection
        }
        while !stopped {
            guard let listening = connection else {
                if let fresh = try? Self.listen(settings: settings, channel: channel) {
                    connection = fresh
                    deliver(nil)
                } else {
                    Thread.sleep(forTimeInterval: Self.retryInterval)
                }
                continue
            }
            var descriptor = pollfd(fd: PQsocket(listening.handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Self.pollMilliseconds)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 || PQconsumeInput(listening.handle) == 0 || listening.isBroken {
                connection = nil
                continue
            }
            while let notification = PQnotifies(listening.handle) {
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                let parts = payload.split(separator: ":")
                guard parts.count == 2, parts[0] != instance[...] else { continue }
                deliver(Int64(parts[1]))
            }
        }
    }
}

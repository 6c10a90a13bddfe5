import CLibPQ
import Foundation
import Synchronization

/// Hears other processes: LISTEN on a connection of its own, watched by one thread (poll() on
/// the socket, then PQconsumeInput / PQnotifies), for every channel the store uses.
///
/// A notification's payload is "<instance>:<number>" (the largest new id, a new revision); our
/// own are ignored. When the connection is lost, notifications sent meanwhile are lost with it,
/// so after reconnecting every handler hears nil ("read again").
///
/// The connection also holds `runningLockKey` shared while it lives: that is how a starting
/// instance tells whether others run on the database (`PostgresStore.otherInstancesRunning`).
final class PGListener: Sendable {
    private let settings: PGSettings
    private let channels: [String]
    private let instance: String
    private let state: Mutex<State>

    private struct State {
        /// The connection `init` opened, until the listening thread takes it over.
        var firstConnection: PGConnection?
        var handlers: [String: [@Sendable (Int64?) -> Void]] = [:]
        /// The server process of the listening connection, which holds the running lock.
        var backendPID: Int32
        var stopped = false
    }

    /// How long the thread sleeps between reconnection attempts and how often it checks `stop()`.
    static let retryInterval: TimeInterval = 0.5
    static let pollMilliseconds: Int32 = 250

    /// Connects and LISTENs now, so nothing inserted after `init` returns can be missed.
    init(settings: PGSettings, channels: [String], instance: String) throws(StoreError) {
        self.settings = settings
        self.channels = channels
        self.instance = instance
        let connection = try Self.listen(settings: settings, channels: channels)
        self.state = Mutex(State(firstConnection: connection, backendPID: PQbackendPID(connection.handle)))
    }

    /// Calls `handler` with the number of each other process's notification on `channel`.
    func add(channel: String, _ handler: @escaping @Sendable (Int64?) -> Void) {
        state.withLock { $0.handlers[channel, default: []].append(handler) }
    }

    /// The server process whose running lock is this instance's own.
    var backendPID: Int32 { state.withLock { $0.backendPID } }

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

    private static func listen(settings: PGSettings, channels: [String]) throws(StoreError) -> PGConnection {
        let connection = try PGConnection(settings: settings)
        try connection.execute(channels.map { "LISTEN \($0); " }.joined()
                               + "SELECT pg_advisory_lock_shared(\(PostgresStore.runningLockKey))")
        return connection
    }

    /// `number` to the handlers of `channel`; nil to every handler (something may have been missed).
    private func deliver(_ number: Int64?, on channel: String? = nil) {
        let handlers = state.withLock { state in
            channel.map { state.handlers[$0] ?? [] } ?? state.handlers.values.flatMap { $0 }
        }
        handlers.forEach { $0(number) }
    }

    /// The listening thread: the only user of its connection.
    private func run() {
        var connection = state.withLock { state in
            defer { state.firstConnection = nil }
            return state.firstConnection
        }
        while !stopped {
            guard let listening = connection else {
                if let fresh = try? Self.listen(settings: settings, channels: channels) {
                    connection = fresh
                    state.withLock { $0.backendPID = PQbackendPID(fresh.handle) }
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
                let channel = String(cString: notification.pointee.relname)
                PQfreemem(notification)
                let parts = payload.split(separator: ":")
                guard parts.count == 2, parts[0] != instance[...] else { continue }
                deliver(Int64(parts[1]), on: channel)
            }
        }
    }
}

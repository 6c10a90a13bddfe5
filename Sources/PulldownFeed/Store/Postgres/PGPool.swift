import Dispatch
import Foundation
import Synchronization

/// A fixed number of PostgreSQL connections shared by the server threads.
///
/// Connections open lazily and are dropped when libpq reports them broken; the next user opens a
/// new one, so the pool reconnects by itself once the server is back. While it is down, every
/// call fails fast with `StoreError` (the API answers 503).
final class PGPool: Sendable {
    private let settings: PGSettings
    /// One permit per connection a caller may hold, so at most `size` are ever open: a caller
    /// takes an idle connection, or opens one only when none is idle.
    private let permits: DispatchSemaphore
    private let idle: Mutex<[PGConnection]>
    var size: Int { settings.poolSize }

    /// How long a caller waits for a busy pool before giving up with a `StoreError`.
    static let waitLimit: TimeInterval = 10

    init(settings: PGSettings, first: PGConnection) {
        self.settings = settings
        self.permits = DispatchSemaphore(value: settings.poolSize)
        self.idle = Mutex([first])
    }

    /// Runs `body` on a connection of its own. If the connection turns out to be dead before a
    /// single round trip succeeded (the server restarted since it was last used), nothing was
    /// done on it, so `body` runs once more on a fresh connection.
    func withConnection<R>(_ body: (PGConnection) throws -> R) throws -> R {
        var retried = false
        while true {
            let connection = try checkOut()
            connection.completedRoundTrips = 0
            do {
                let result = try body(connection)
                checkIn(connection)
                return result
            } catch {
                let broken = connection.isBroken
                checkIn(connection)
                if broken, connection.completedRoundTrips == 0, !retried {
                    retried = true
                    continue
                }
                throw error
            }
        }
    }

    private func checkOut() throws(StoreError) -> PGConnection {
        guard permits.wait(timeout: .now() + Self.waitLimit) == .success else {
            throw .unavailable(location: settings.location,
                               reason: "all \(settings.poolSize) database connections stayed busy for \(Int(Self.waitLimit)) s")
        }
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        do {
            return try PGConnection(settings: settings)
        } catch {
            permits.signal()
            throw error
        }
    }

    private func checkIn(_ connection: PGConnection) {
        connection.rollbackQuietly()
        let dropped: [PGConnection] = idle.withLock { idle in
            guard connection.isBroken else {
                idle.append(connection)
                return []
            }
            // One dead connection usually means the server restarted: the idle ones are dead too.
            defer { idle.removeAll() }
            return idle + [connection]
        }
        permits.signal()
        // Closed here, outside the lock.
        _ = dropped
    }
}

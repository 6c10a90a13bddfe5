import Foundation

/// A fixed number of PostgreSQL connections shared by the server threads.
///
/// Connections open lazily and are dropped when libpq reports them broken; the next user opens a
/// new one, so the pool reconnects by itself once the server is back. While it is down, every
/// call fails fast with `StoreError` (the API answers 503).
final class PGPool: @unchecked Sendable {
    // @unchecked: `idle` and `open` are only touched with `condition` locked.
    private let settings: PGSettings
    private let condition = NSCondition()
    private var idle: [PGConnection] = []
    private var open = 0
    var size: Int { settings.poolSize }

    /// How long a caller waits for a busy pool before giving up with a `StoreError`.
    static let waitLimit: TimeInterval = 10

    init(settings: PGSettings, first: PGConnection) {
        self.settings = settings
        idle = [first]
        open = 1
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
        condition.lock()
        let deadline = Date().addingTimeInterval(Self.waitLimit)
        while idle.isEmpty && open >= settings.poolSize {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw StoreError(path: settings.target,
                                 reason: "all \(settings.poolSize) database connections stayed busy for \(Int(Self.waitLimit)) s",
                                 duringOpen: false)
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        do {
            return try PGConnection(settings: settings, duringOpen: false)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ connection: PGConnection) {
        connection.rollbackQuietly()
        var dropped: [PGConnection] = []
        condition.lock()
        if connection.isBroken {
            // One dead connection usually means the server restarted: the idle ones are dead too.
            dropped = idle + [connection]
            open -= dropped.count
            idle.removeAll()
            condition.broadcast()
        } else {
            idle.append(connection)
            condition.signal()
        }
        condition.unlock()
        // Closed outside the lock.
        dropped.removeAll()
    }
}

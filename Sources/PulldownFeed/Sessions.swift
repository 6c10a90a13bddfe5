import Foundation

extension Feed {
    /// A pull-to-refresh: generates demo items if due, returns what is new since the baseline, and
    /// stamps the session, all in one transaction (a failure changes nothing).
    ///
    /// The baseline is `after`, else the session's last seen id, else 0. Items are the newest
    /// `limit` with id > baseline, newest first; `gap` is true when more than `limit` are newer.
    /// The session's lastUpdated never moves back, its lastSeenID never shrinks, and every
    /// successful call counts, concurrent ones included.
    public func refresh(session id: SessionID, after: Int64?, limit: Int) throws -> RefreshResult {
        let limit = clamp(limit)
        let now = clock.now().timeIntervalSince1970
        let (result, generated) = try store.write { connection -> (RefreshResult, Int64?) in
            let generated = try generateIfDue(now: Date(timeIntervalSince1970: now), on: connection)
            let old = try SessionRows.load(id, on: connection)
            let baseline = after ?? old?.lastSeenID ?? 0
            let rows = try ItemRows.fetch(ItemRows.newestNewerThan, cursor: baseline, limit: limit + 1, on: connection)
            let items = Array(rows.prefix(limit))
            // A cursor beyond the newest item must not make later refreshes skip real items.
            let newest = try ItemRows.maxID(on: connection) ?? 0
            let lastSeen = max(old?.lastSeenID ?? 0, min(baseline, newest), items.first?.id ?? 0)
            let lastUpdated = max(old?.lastUpdated ?? now, now)
            try SessionRows.store(id, lastUpdated: lastUpdated, lastSeenID: lastSeen,
                                  refreshCount: (old?.refreshCount ?? 0) + 1, lastActive: now, on: connection)
            let result = RefreshResult(items: items, gap: rows.count > limit,
                                       lastUpdated: Date(timeIntervalSince1970: lastUpdated))
            return (result, generated)
        }
        if let generated { noteInserted(upTo: generated) }
        return result
    }

    /// What is stored for the session, or nil when it never refreshed. Creates nothing.
    public func session(_ id: SessionID) throws -> SessionState? {
        guard let row = try store.read({ try SessionRows.load(id, on: $0) }) else { return nil }
        return SessionState(lastUpdated: Date(timeIntervalSince1970: row.lastUpdated),
                            lastSeenID: row.lastSeenID, refreshCount: row.refreshCount)
    }

    /// Deletes sessions not active for longer than `sessionTTL`; returns how many.
    @discardableResult
    public func expireIdleSessions() throws -> Int {
        let cutoff = clock.now().timeIntervalSince1970 - configuration.sessionTTL
        return try store.write { connection in
            try connection.withStatement("DELETE FROM sessions WHERE last_active < ?1") { statement in
                try statement.bind(1, cutoff)
                try statement.step()
                return connection.changes
            }
        }
    }
}

/// The `sessions` table.
enum SessionRows {
    struct Row {
        let lastUpdated: Double
        let lastSeenID: Int64
        let refreshCount: Int
    }

    static func load(_ id: SessionID, on connection: SQLiteConnection) throws -> Row? {
        try connection.withStatement(
            "SELECT last_updated, last_seen_id, refresh_count FROM sessions WHERE id = ?1"
        ) { statement in
            try statement.bind(1, blob: id.bytes)
            guard try statement.step() else { return nil }
            return Row(lastUpdated: statement.double(0), lastSeenID: statement.int64(1),
                       refreshCount: Int(statement.int64(2)))
        }
    }

    static func store(_ id: SessionID, lastUpdated: Double, lastSeenID: Int64, refreshCount: Int,
                      lastActive: Double, on connection: SQLiteConnection) throws {
        try connection.withStatement("""
            INSERT INTO sessions(id, last_updated, last_seen_id, refresh_count, last_active)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(id) DO UPDATE SET
                last_updated = excluded.last_updated, last_seen_id = excluded.last_seen_id,
                refresh_count = excluded.refresh_count, last_active = excluded.last_active
            """) { statement in
            try statement.bind(1, blob: id.bytes)
            try statement.bind(2, lastUpdated)
            try statement.bind(3, lastSeenID)
            try statement.bind(4, refreshCount)
            try statement.bind(5, lastActive)
            try statement.step()
        }
    }
}

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
        let (result, generated) = try store.write { store -> (RefreshResult, Int64?) in
            let generated = try generateIfDue(now: Date(timeIntervalSince1970: now), in: store)
            let old = try store.session(id)
            let baseline = after ?? old?.lastSeenID ?? 0
            let rows = try store.newestItems(after: baseline, limit: limit + 1)
            let items = Array(rows.prefix(limit))
            // A cursor beyond the newest item must not make later refreshes skip real items.
            let newest = try store.maxItemID() ?? 0
            let lastSeen = max(old?.lastSeenID ?? 0, min(baseline, newest), items.first?.id ?? 0)
            let lastUpdated = max(old?.lastUpdated ?? now, now)
            try store.saveSession(id, SessionRecord(lastUpdated: lastUpdated, lastSeenID: lastSeen,
                                                    refreshCount: (old?.refreshCount ?? 0) + 1, lastActive: now))
            let result = RefreshResult(items: items, gap: rows.count > limit,
                                       lastUpdated: Date(timeIntervalSince1970: lastUpdated))
            return (result, generated)
        }
        if let generated { noteInserted(upTo: generated) }
        return result
    }

    /// What is stored for the session, or nil when it never refreshed. Creates nothing.
    public func session(_ id: SessionID) throws -> SessionState? {
        guard let row = try store.read({ try $0.session(id) }) else { return nil }
        return SessionState(lastUpdated: Date(timeIntervalSince1970: row.lastUpdated),
                            lastSeenID: row.lastSeenID, refreshCount: row.refreshCount)
    }

    /// Deletes sessions not active for longer than `sessionTTL`; returns how many.
    @discardableResult
    public func expireIdleSessions() throws -> Int {
        let cutoff = clock.now().timeIntervalSince1970 - configuration.sessionTTL
        return try store.write { try $0.deleteSessions(lastActiveBefore: cutoff) }
    }
}

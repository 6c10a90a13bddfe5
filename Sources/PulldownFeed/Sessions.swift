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
        let request = RefreshRequest(session: id, after: after, limit: clamp(limit))
        let (result, generated) = try store.write { store in
            try applyRefresh(request, now: clock.now().timeIntervalSince1970, in: store)
        }
        if let generated { noteInserted(upTo: generated) }
        return result
    }

    /// The same refresh, answered later on a writer queue: refreshes that arrive together are
    /// committed in one transaction (group commit), so a burst of them costs one commit, not
    /// one each, and no server thread waits for the write lock. Each is applied in order, as
    /// if alone; if the transaction fails, every refresh in it fails and nothing changes.
    public func refresh(session id: SessionID, after: Int64?, limit: Int,
                        completion: @escaping @Sendable (Result<RefreshResult, any Error>) -> Void) {
        refreshBatcher.submit(RefreshRequest(session: id, after: after, limit: clamp(limit)),
                              commit: { try self.commitRefreshes($0) }, completion: completion)
    }

    /// Commits a batch of refreshes in one transaction; returns their results in order.
    func commitRefreshes(_ requests: [RefreshRequest]) throws -> [RefreshResult] {
        let now = clock.now().timeIntervalSince1970
        let (results, generated) = try store.write { store -> ([RefreshResult], Int64?) in
            var results: [RefreshResult] = []
            results.reserveCapacity(requests.count)
            var generated: Int64?
            for request in requests {
                let (result, made) = try applyRefresh(request, now: now, in: store)
                results.append(result)
                generated = made ?? generated
            }
            return (results, generated)
        }
        if let generated { noteInserted(upTo: generated) }
        return results
    }

    /// One refresh inside an open write transaction: generate if due, read what is new, stamp.
    private func applyRefresh(_ request: RefreshRequest, now: Double,
                              in store: any FeedStoreWriting) throws -> (RefreshResult, Int64?) {
        let generated = try generateIfDue(now: Date(timeIntervalSince1970: now), in: store)
        let old = try store.session(request.session)
        let baseline = request.after ?? old?.lastSeenID ?? 0
        let rows = try store.newestItems(after: baseline, limit: request.limit + 1)
        let items = Array(rows.prefix(request.limit))
        // A cursor beyond the newest item must not make later refreshes skip real items.
        let newest = try store.maxItemID() ?? 0
        let lastSeen = max(old?.lastSeenID ?? 0, min(baseline, newest), items.first?.id ?? 0)
        let lastUpdated = max(old?.lastUpdated ?? now, now)
        try store.saveSession(request.session, SessionRecord(lastUpdated: lastUpdated, lastSeenID: lastSeen,
                                                             refreshCount: (old?.refreshCount ?? 0) + 1, lastActive: now))
        let result = RefreshResult(items: items, gap: rows.count > request.limit,
                                   lastUpdated: Date(timeIntervalSince1970: lastUpdated))
        return (result, generated)
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

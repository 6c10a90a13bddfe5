import Foundation

/// One refresh waiting to be committed.
struct RefreshRequest: Sendable {
    let session: SessionID
    let after: Int64?
    /// Already clamped to the feed's page sizes.
    let limit: Int
    /// Where the client's changes start; nil: where the session's last refresh left it.
    var changesSince: Int64?
}

/// The rules of a pull-to-refresh, applied to a batch of them in one transaction.
///
/// Holds what a refresh needs rather than the `Feed`, so the batcher that owns it holds no
/// reference back to the feed.
struct Refresher: Sendable {
    let store: any FeedStore
    let clock: any FeedClock
    let generator: DemoGenerator
    let inserts: InsertReports

    /// Commits `requests` in one transaction, each applied in order as if alone; returns their
    /// results in that order. If the transaction fails, nothing changes and every one fails.
    func commit(_ requests: [RefreshRequest]) throws -> [RefreshResult] {
        let now = clock.now().timeIntervalSince1970
        let (results, generated) = try store.write { store -> ([RefreshResult], Int64?) in
            // Each refresh reads its session and writes it back: no other process may do the same
            // to these sessions in between.
            try store.lockSessions(requests.map(\.session))
            // The whole batch shares one `now`, so whatever is due is due for its first refresh
            // and for none after it: generating once, before all of them, is the same as each in
            // turn. Nothing else inserts inside this transaction, so the newest id is read once.
            let generated = try generator.generateIfDue(now: Date(timeIntervalSince1970: now), in: store)
            let newest = try store.maxItemID() ?? 0
            // As known (no statement), else from the store: a label for the client's next requests.
            let feedID = try inserts.revision.feedID ?? store.feedIDCreatingIt()
            let log = ChangeLogView(sequence: try store.sequence(), floor: try store.changesFloor())
            let results = try requests.map { try apply($0, now: now, newest: newest, feedID: feedID, log: log, in: store) }
            return (results, generated)
        }
        if let generated { inserts.inserted(upTo: generated) }
        return results
    }

    /// The most changes a refresh brings; past them the client starts over from the newest page.
    static let maxChanges = Feed.maxPageSize

    /// The change log's sequence and floor, read once for a batch.
    struct ChangeLogView {
        let sequence: Int64
        let floor: Int64
    }

    /// One refresh inside an open write transaction, with `newest` the largest item id: read what
    /// is new and what changed, and stamp the session.
    private func apply(_ request: RefreshRequest, now: Double, newest: Int64, feedID: FeedID, log: ChangeLogView,
                       in store: any FeedStoreWriting) throws -> RefreshResult {
        let old = try store.session(request.session)
        var baseline = request.after ?? old?.lastSeenID ?? 0
        // 0 is no position: a session that never said where its changes start gets none.
        let since = request.changesSince ?? old.flatMap { $0.lastSequence > 0 ? $0.lastSequence : nil }
        var changes: [Change] = []
        var startOver = false
        if let since, since < log.sequence {
            changes = try store.changes(since: since, limit: Self.maxChanges + 1)
            // Too many, or some no longer kept: the newest page instead, from which the client
            // starts over (`gap`).
            startOver = changes.count > Self.maxChanges || since < log.floor
        }
        if startOver {
            changes = []
            baseline = 0
        }
        // Usually nothing is newer than what the session saw: then there is nothing to read.
        let rows = baseline < newest ? try store.newestItems(after: baseline, limit: request.limit + 1) : []
        let latest = LatestItems(rows: rows, limit: request.limit)
        // A cursor beyond the newest item must not make later refreshes skip real items.
        let lastSeen = max(old?.lastSeenID ?? 0, min(baseline, newest), latest.items.first?.id ?? 0)
        let lastUpdated = max(old?.lastUpdated ?? now, now)
        let sequence = max(log.sequence, changes.last?.sequence ?? 0)
        try store.saveSession(request.session, SessionRecord(lastUpdated: lastUpdated, lastSeenID: lastSeen,
                                                             refreshCount: (old?.refreshCount ?? 0) + 1, lastActive: now,
                                                             lastSequence: max(old?.lastSequence ?? 0, sequence)))
        return RefreshResult(items: latest.items, gap: startOver || latest.gap,
                             lastUpdated: Date(timeIntervalSince1970: lastUpdated), feedID: feedID,
                             changes: changes, sequence: sequence)
    }
}

import Foundation

extension Feed {
    /// How far back seeded items reach, so a feed shows Today, Yesterday and older days.
    static let seedSpan: Int64 = 4 * 86400

    /// Fills an empty feed with `count` deterministic demo items; returns how many it inserted
    /// (0 when the feed already has items).
    ///
    /// One transaction and one prepared statement (SQLite) or one COPY (PostgreSQL): a million items
    /// take a few seconds. The count is for callers that check it; most want the items alone.
    @discardableResult
    public func seedIfEmpty(count: Int) throws -> Int {
        guard count > 0 else { return 0 }
        let lastID: Int64? = try store.write { store in
            // Checked under the insert lock: of several processes starting at once on one shared
            // store, only the first seeds.
            try store.lockForInserts()
            guard try store.maxItemID() == nil else { return nil }
            return try seed(count: count, in: store)
        }
        guard let lastID else { return 0 }
        inserts.inserted(upTo: lastID)
        // A big seed leaves a WAL as large as the data; fold it in now rather than keep it on disk.
        if count >= 10_000 { compactStorage() }
        return count
    }

    /// Inserts demo items 1 to `count` into an empty feed, inside a write transaction that holds
    /// the insert lock, and marks the feed as the demo's; returns the last id.
    ///
    /// Items are spread over the ~4 days before now, oldest first so ids grow with time.
    func seed(count: Int, in store: any FeedStoreWriting) throws -> Int64? {
        let now = clock.now()
        let end = Int64(now.timeIntervalSince1970.rounded(.down)) - 60
        let start = end - Self.seedSpan + 600
        let steps = Int64(max(1, count - 1))
        let lastID = try store.insertItems(count: count) { index in
            let remaining = Int64(count - 1 - index)
            let createdAt = end - remaining * (end - start) / steps
            return DemoContent.draft(number: Int64(index + 1), createdAt: createdAt)
        }
        // Seeding counts as the latest item time: the generator waits a full interval from here.
        try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
        try store.setMeta(MetaKey.demoFeedThrough, double: Double(lastID ?? 0))
        return lastID
    }

    /// How many items the feed holds: a scan, for what is said at start, not for requests.
    public func itemCount() throws -> Int64 {
        try store.read { try $0.itemCount() }
    }
}

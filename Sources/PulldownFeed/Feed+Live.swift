import Foundation

/// What live events need: the newest items above a cursor and word of every insert; and the demo
/// generator that `DemoGeneratorTimer` runs while they are watched.
extension Feed {
    /// The newest `limit` items with id > `cursor`, newest first: the top of the feed, not the
    /// items next to the cursor (that is `page(after:)`). `gap` says more are newer than the
    /// cursor (the caller should refresh).
    public func latestItems(newerThan cursor: Int64, limit: Int) throws -> LatestItems {
        let limit = clamp(limit)
        let rows = try store.read { try $0.newestItems(after: cursor, limit: limit + 1) }
        return LatestItems(rows: rows, limit: limit)
    }

    /// Calls `handler` after every committed insert, made here or by another process sharing the
    /// store, with the largest new id; nil when inserts may have been missed (read again).
    public func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
        inserts.observers.add(handler)
    }

    /// Seconds between generated demo items, 0 for none: `FeedConfiguration.newItemsEvery` at
    /// start, changed at any time (the demo control API does).
    public var newItemsEvery: TimeInterval {
        get { generator.interval }
        set { generator.interval = newValue }
    }

    /// Adds 1 to 3 demo items if `newItemsEvery` has passed since the last item, as a refresh
    /// would; `DemoGeneratorTimer` calls it while a stream is open.
    public func generateDueItems() throws {
        // Off: not even a write transaction.
        guard generator.interval > 0 else { return }
        let now = clock.now()
        if let newest = try store.write({ try generator.generateIfDue(now: now, in: $0) }) {
            inserts.inserted(upTo: newest)
        }
    }
}

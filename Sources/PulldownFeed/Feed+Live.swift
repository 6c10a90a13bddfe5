import Foundation

/// What live events need: the newest items above a cursor and word of every insert; and the demo
/// generator that `DemoGeneratorTimer` runs while they are watched.
extension Feed {
    /// The newest `limit` items with id > `cursor`, newest first; `hasMore` says even more are
    /// newer (the caller has a gap and should refresh).
    public func latestItems(after cursor: Int64, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let rows = try store.read { try $0.newestItems(after: cursor, limit: limit + 1) }
        return ItemPage(items: Array(rows.prefix(limit)), hasMore: rows.count > limit)
    }

    /// Calls `handler` after every committed insert, made here or by another process sharing the
    /// store, with the largest new id; nil when inserts may have been missed (read again).
    public func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
        inserts.observers.add(handler)
    }

    /// Adds 1 to 3 demo items if `newItemsEvery` has passed since the last item, as a refresh
    /// would; `DemoGeneratorTimer` calls it while a stream is open.
    func generateDueItems() throws {
        let now = clock.now()
        if let newest = try store.write({ try generator.generateIfDue(now: now, in: $0) }) {
            inserts.inserted(upTo: newest)
        }
    }
}

import Foundation

/// Starting over: `--reset`, `POST /api/demo/reset`, and a data file that replaces the feed.
extension Feed {
    /// Empties the feed and seeds it again with `count` demo items, as a new store would be;
    /// returns the newest id (nil: none).
    @discardableResult
    public func resetToDemo(count: Int) throws -> Int64? {
        try reset { store in _ = try seed(count: count, in: store) }
    }

    /// Moves with every reset, this process's or (on a shared store) another's: what was read at
    /// one generation tells nothing of the feed at the next. Read it before what is kept under it.
    public var generation: UInt64 { revision.generation }

    /// Calls `handler` after every reset, made here or by another process sharing the store, with
    /// the newest id it left (nil: an empty feed), on the thread that reported it.
    public func observeResets(_ handler: @escaping @Sendable (Int64?) -> Void) {
        inserts.resetObservers.add(handler)
    }

    /// Every reset goes through here. In one transaction, under the insert lock: `refused` may
    /// throw to leave the feed as it is; then the items, the sessions and what the store
    /// remembers of where they came from are deleted, and `refill` fills the feed again. Once committed, the revision and `generation` move, the newest id is
    /// what the reset left, and resets are announced here and to the processes sharing the store.
    /// Ids keep growing across it (the store never hands one out twice), so no cursor of the old
    /// feed names an item of the new one. Returns the newest id (nil: an empty feed).
    func reset(unless refused: (any FeedStoreReading) throws -> Void = { _ in },
               refill: (any FeedStoreWriting) throws -> Void) throws -> Int64? {
        let now = clock.now()
        let newest: Int64? = try store.write { store in
            try store.lockForInserts()
            try refused(store)
            try store.deleteItemsAndSessions()
            try store.deleteMeta(MetaKey.contentsFacts)
            // The generator's interval starts again from the reset.
            try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
            try refill(store)
            try store.announceReset()
            return try store.maxItemID()
        }
        inserts.reset(newest: newest)
        return newest
    }
}

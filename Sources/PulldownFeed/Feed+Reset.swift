import Foundation

/// Starting over: `--reset`, `POST /api/demo/reset`, and a data file that replaces the feed.
extension Feed {
    /// Empties the feed and seeds it again with `count` demo items, as a new store would be;
    /// returns the newest id (nil: none).
    @discardableResult
    public func resetToDemo(count: Int) throws -> Int64? {
        try reset { store in _ = try seed(count: count, in: store) }
    }

    /// Calls `handler` after every reset, made here or by another process sharing the store, with
    /// the newest id it left (nil: an empty feed), on the thread that reported it.
    public func observeResets(_ handler: @escaping @Sendable (Int64?) -> Void) {
        inserts.resetObservers.add(handler)
    }

    /// Every reset goes through here. In one transaction, under the insert lock: `refused` may
    /// throw to leave the feed as it is; then the store deletes the items, their changes and the sessions and
    /// gives the feed a new identity (`FeedID`), what it remembers of where the items came from
    /// goes too, and `refill` fills the feed again. So nothing promised under the old identity is
    /// ever answered from the new feed. Once committed, the revision moves, the identity and the
    /// newest id are what the reset left, and the reset is announced here and to the processes
    /// sharing the store. Ids keep growing across it (the store never hands one out twice), so no
    /// cursor of the old feed names an item of the new one. Returns the newest id (nil: an empty
    /// feed).
    func reset(unless refused: (any FeedStoreReading) throws -> Void = { _ in },
               refill: (any FeedStoreWriting) throws -> Void) throws -> Int64? {
        let now = clock.now()
        let id = FeedID.random()
        let newest: Int64? = try store.write { store in
            try store.lockForInserts()
            try refused(store)
            try store.resetFeed(to: id)
            // The old feed's changes went with it: a client that stood before now starts over.
            try store.setMeta(MetaKey.changesFloor, double: Double(try store.sequence()))
            try store.deleteMeta(MetaKey.contentsFacts)
            // The generator's interval starts again from the reset.
            try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
            try refill(store)
            return try store.maxItemID()
        }
        inserts.reset(to: id, newest: newest)
        return newest
    }
}

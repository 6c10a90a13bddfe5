import Foundation

/// The feed: keyset pages of items, refreshes that remember each session, and the demo generator.
///
/// Safe to call from many threads at once: writes are serialized by the store (across processes
/// too, for a shared store), reads run on pooled connections.
public final class Feed: Sendable {
    let store: any FeedStore
    /// The demo clock the feed stamps items by; the API reads its time from it too (a cursor's age).
    let clock: any FeedClock
    let configuration: FeedConfiguration
    /// The revision and the newest id, as this process knows them.
    let revision: FeedRevision
    /// Every committed insert is reported here: the revision moves, observers hear of it.
    let inserts: InsertReports
    /// Adds demo items when due: on a refresh, and for `DemoGeneratorTimer`.
    let generator: DemoGenerator
    /// Group commit for `refresh(…, completion:)`.
    let refreshes: GroupCommit<RefreshRequest, RefreshResult>
    /// Group commit for `addItem(_:completion:)`.
    let posts: GroupCommit<Validation.Valid, Item>
    /// Group commit for `addDemoItems(count:completion:)`.
    let demoItems: GroupCommit<Int, [Item]>
    /// Group commit for `change(_:_:completion:)`.
    let changes: GroupCommit<ChangeRequest, Result<ChangeOutcome, any Error>>
    /// Other processes' changes, read from the log when heard of.
    let foreignChanges: ForeignChanges
    /// Coalesced checks of the newest id, on a shared store only.
    let sharedStoreCheck: SharedStoreCheck?

    /// Now, by the feed's clock: the time its items and sessions are stamped with.
    public func now() -> Date {
        clock.now()
    }

    init(store: any FeedStore, clock: any FeedClock = SystemClock(), configuration: FeedConfiguration = .init()) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        let revision = FeedRevision()
        self.revision = revision
        let inserts = InsertReports(revision: revision, observers: InsertObservers())
        self.inserts = inserts
        let generator = DemoGenerator(interval: configuration.newItemsEvery,
                                      sequence: DemoSequence(seed: configuration.demoSeed))
        self.generator = generator
        // The group commits hold what a write needs, not the feed, so the two hold no cycle.
        // Refreshes and posts share one serial writer queue: they take the write lock in turn.
        let writer = DispatchQueue(label: "pulldown.writer", qos: .userInitiated)
        let refresher = Refresher(store: store, clock: clock, generator: generator, inserts: inserts)
        self.refreshes = GroupCommit(queue: writer, commit: refresher.commit)
        self.posts = GroupCommit(queue: writer, commit: Poster(store: store, clock: clock, inserts: inserts).commit)
        self.changes = GroupCommit(queue: writer, commit: Changer(store: store, clock: clock, inserts: inserts,
                                                                  kept: configuration.changesKept).commit)
        self.demoItems = GroupCommit(queue: writer) { [store, clock] counts in
            let items = try store.write { try generator.insertNext(counts.reduce(0, +), now: clock.now(), in: $0) }
            if let newest = items.last?.id { inserts.inserted(upTo: newest) }
            // Each request its own, in order, newest first.
            var rest = items[...]
            return counts.map { count in
                defer { rest = rest.dropFirst(count) }
                return Array(rest.prefix(count).reversed())
            }
        }
        let foreignChanges = ForeignChanges(store: store, inserts: inserts)
        self.foreignChanges = foreignChanges
        self.sharedStoreCheck = store.isShared ? SharedStoreCheck { [store, revision] in
            // The newest id, the identity and the sequence in one statement: a reset or a change
            // another process made is seen by the same check that sees its inserts, and applied
            // before any caller is answered, even before its notice arrives.
            let resets = revision.resets
            let outcome = Result { try store.read { try $0.newestAndFeedID() } }
            switch outcome {
            case .success(let read):
                revision.noteStoreAnswered(newest: read.newest ?? 0, feedID: read.feedID, readAt: resets)
                if let known = revision.sequence, read.sequence > known { foreignChanges.apply(through: read.sequence) }
            case .failure: revision.noteStoreDidNotAnswer()
            }
            return outcome.map(\.newest)
        } : nil
        // Another process sharing the store inserted: move the caches as if the insert were ours.
        // Registered before the first read, so no insert can fall between the read and the hook.
        store.observeForeignInserts { newest in inserts.foreignInserts(upTo: newest) }
        store.observeForeignResets { newest in inserts.foreignReset(newest: newest) }
        store.observeForeignChanges { through in foreignChanges.apply(through: through) }
        // Best effort: if the store does not answer now, `newestID()` and `feedID()` ask again later.
        _ = try? newestID()
        _ = try? feedID()
        _ = try? sequence()
    }

    /// The largest id in the database, 0 for an empty feed.
    private func readNewestID() throws -> Int64 {
        try store.read { try $0.maxItemID() } ?? 0
    }

    /// Gives `body` the feed's revision: a number that moves on every committed insert, change
    /// and reset in this process (a seed or a generated batch counts once), and when another process
    /// sharing the store reports inserts or a reset. A cache keyed on it is stale once it moved; it moves only after the
    /// commit, so data read after seeing revision R is at least as new as R.
    ///
    /// On SQLite, `body` runs before this returns. On a shared store (PostgreSQL) the store's
    /// newest id is checked first, so an item another process committed and acknowledged is
    /// never hidden by a cache keyed on this revision, even before its notification arrives: one
    /// indexed query, shared by every caller that arrived before it started (see
    /// `SharedStoreCheckState`). No caller's thread waits for it: when a check is in flight, `body`
    /// runs later, on the thread that made the next one, so it must be quick. If the store does
    /// not answer, `body` gets its error and the revision moves, so nothing cached is trusted
    /// while it is down.
    ///
    /// There is no form of this that waits: a server thread held for another request's query
    /// is what the shared check exists to avoid.
    public func withCurrentRevision(_ body: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        guard let sharedStoreCheck else { return body(.success(revision.current)) }
        sharedStoreCheck.check { [revision] outcome in body(outcome.map { _ in revision.current }) }
    }

    /// `withCurrentRevision`, with the feed's identity as well: on a shared store, as the same
    /// check read it, so a reset another process committed before this call is seen, even before
    /// its notification arrives.
    public func withCurrentState(_ body: @escaping @Sendable (Result<FeedState, any Error>) -> Void) {
        withCurrentRevision { [self] revision in
            body(revision.flatMap { current in Result { FeedState(revision: current, id: try feedID(), sequence: try sequence()) } })
        }
    }

    /// The feed's identity: as known, else read from the store (and created, the first time a
    /// store is opened by a program that has identities).
    public func feedID() throws -> FeedID {
        if let known = revision.feedID { return known }
        let resets = revision.resets
        let stored = try store.read { try $0.storedFeedID() } ?? store.write { try $0.feedIDCreatingIt() }
        return revision.merge(feedID: stored, readAt: resets)
    }

    /// `read`'s result if the feed was `id` all along, else nil: `id` must be the identity known
    /// now (on a shared store, call this inside `withCurrentState`), and the store must still
    /// say `id` once `read` is done. A reset commits its deletions and the new identity at once,
    /// so what `read` saw belongs to `id`: what is promised never to change under a name that
    /// holds `id` is checked by this.
    public func reading<T>(inFeed id: FeedID, _ read: () throws -> T) throws -> T? {
        guard try feedID() == id else { return nil }
        let value = try read()
        guard try store.read({ try $0.storedFeedID() }) == id else {
            // Another process reset the store since: forget what we know, it is stale. Its
            // notification tells the observers (`InsertReports.foreignReset(newest:)`).
            if revision.feedID == id { revision.noteReset(to: nil, newest: nil) }
            return nil
        }
        return value
    }

    /// The largest item id in the feed as this process knows it, or nil for an empty feed. Only
    /// grows, but for a reset, which leaves what it refilled.
    ///
    /// Read from the store once, then kept up to date by every insert and reset reported; it
    /// waits for no check. On a shared store it may therefore lag another process's insert or
    /// reset until its notification arrives, but it is never ahead of the ids the store handed
    /// out, and ids are never handed out twice: what is decided on it (a page that can never
    /// change) errs on the safe side.
    public func newestID() throws -> Int64? {
        if let known = revision.newestID { return known == 0 ? nil : known }
        let resets = revision.resets
        let newest = revision.merge(newest: try readNewestID(), readAt: resets)
        return newest == 0 ? nil : newest
    }

    /// The largest page the feed returns; larger limits are clamped.
    public static let maxPageSize = 100

    /// Clamps a page size into 1...maxPageSize; the API layer validates, this is only a safety net.
    func clamp(_ limit: Int) -> Int {
        min(max(1, limit), Self.maxPageSize)
    }

    // MARK: Reading

    /// The `limit` items just below `before` (the newest items when nil), newest first;
    /// `hasMore` says older items exist.
    /// The `limit` places just below `before` (the newest when nil), newest first, and the
    /// items in them (a deleted one's place is kept, not shown); `hasMore` says older places
    /// exist.
    public func page(before: Int64?, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let rows = try store.read { try $0.places(before: before ?? Int64.max, limit: limit + 1) }
        let places = rows.prefix(limit)
        return ItemPage(items: places.compactMap(\.item), direction: .older, hasMore: rows.count > limit, edge: places.last?.id)
    }

    /// The `limit` places just above `after` (contiguous with it), newest first, and the items
    /// in them; `hasMore` says even newer places exist, i.e. the client still has a gap above
    /// these.
    public func page(after: Int64, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let rows = try store.read { try $0.oldestPlaces(after: after, limit: limit + 1) }
        let places = rows.prefix(limit)
        return ItemPage(items: places.reversed().compactMap(\.item), direction: .newer, hasMore: rows.count > limit,
                        edge: places.last?.id)
    }

    /// Throws if the store does not answer a trivial query that touches the items table.
    public func checkHealth() throws {
        _ = try store.read { try $0.maxItemID() }
    }

    // MARK: Writing

    /// Adds an item; `completion` gets it as stored (or the failure) later, on the writer queue.
    /// Invalid fields fail at once with `FeedError.invalid`, naming each, and nothing is written.
    ///
    /// Posts that arrive together are committed in one transaction (group commit, see
    /// `GroupCommit`), so no server thread waits for the write lock or the disk.
    public func addItem(_ new: NewItem, completion: @escaping @Sendable (Result<Item, any Error>) -> Void) {
        let valid: Validation.Valid
        do {
            valid = try Validation.check(new)
        } catch {
            completion(.failure(error))
            return
        }
        posts.submit(valid, completion: completion)
    }

    /// Checks `new`'s fields as `addItem` and an edit do (`FeedError.invalid` naming each bad
    /// one), without writing anything: for a caller that can refuse a request before it names
    /// an item.
    public static func check(_ new: NewItem) throws(FeedError) {
        _ = try Validation.check(new)
    }

    /// Gives disk space back after large writes (SQLite: folds the write-ahead log into the
    /// database file); nothing to do on PostgreSQL. Best effort.
    public func compactStorage() {
        store.compact()
    }
}

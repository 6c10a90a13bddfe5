import Foundation

/// The feed: keyset pages of items, refreshes that remember each session, and the demo generator.
///
/// Safe to call from many threads at once: writes are serialized by the store (across processes
/// too, for a shared store), reads run on pooled connections.
public final class Feed: Sendable {
    let store: any FeedStore
    public let clock: any FeedClock
    public let configuration: FeedConfiguration
    let cache: FeedCache
    /// Adds demo items when due: on a refresh, and for `DemoGeneratorTimer`.
    let generator: DemoGenerator
    /// Group commit for `refresh(…, completion:)`.
    let refreshBatcher: RefreshBatcher
    /// Coalesced checks of the newest id, on a shared store only.
    let sharedStoreCheck: SharedStoreChecker?

    public init(store: any FeedStore, clock: any FeedClock = SystemClock(), configuration: FeedConfiguration = .init()) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        let cache = FeedCache()
        self.cache = cache
        let generator = DemoGenerator(interval: configuration.newItemsEvery)
        self.generator = generator
        // The batcher holds what a refresh needs, not the feed, so the two hold no cycle.
        let refresher = Refresher(store: store, clock: clock, generator: generator, cache: cache)
        self.refreshBatcher = RefreshBatcher(commit: refresher.commit)
        self.sharedStoreCheck = store.isShared ? SharedStoreChecker { [store, cache] in
            let outcome = Result { try store.read { try $0.maxItemID() } }
            cache.noteStoreAnswered(newest: try? outcome.get())
            return outcome
        } : nil
        // Another process sharing the store inserted: move the caches as if the insert were ours.
        // Registered before the first read, so no insert can fall between the read and the hook.
        store.observeForeignInserts { newest in cache.noteForeignInserts(upTo: newest) }
        // Best effort: if the store does not answer now, `newestID()` asks again later.
        if let newest = readNewestID() {
            _ = cache.merge(newest: newest)
        }
    }

    /// The largest id from the database; outer nil when the store did not answer.
    private func readNewestID() -> Int64?? {
        do {
            return .some(try store.read { try $0.maxItemID() })
        } catch {
            return nil
        }
    }

    /// A number that moves on every committed insert in this process (a seed or a generated batch
    /// counts once), and when another process sharing the store reports inserts: a cache keyed
    /// on it is stale once it moved.
    ///
    /// It moves only after the commit, so data read after seeing revision R is at least as new as R.
    ///
    /// Cost: a lock on SQLite. On a shared store (PostgreSQL) also a check of the store's newest
    /// id, so an item another process committed and acknowledged is never hidden by a cache keyed
    /// on this revision, even before its notification arrives: one indexed query, shared by every
    /// caller that arrived before it started (see `SharedStoreCheck`). If the store does not
    /// answer, the revision moves, so nothing cached is trusted while it is down.
    public func currentRevision() -> UInt64 {
        _ = sharedStoreCheck?.checkAndWait()
        return cache.revision
    }

    /// `currentRevision()` without holding this thread while the shared store is checked:
    /// `body` gets the revision, or the store's error when the check failed.
    ///
    /// `body` runs before this returns on SQLite, and on a shared store when no check was in
    /// flight; else later, on the thread that made the check, so it must be quick and must not
    /// wait for another check (`currentRevision()`, `newestID()`).
    public func withCurrentRevision(_ body: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        guard let sharedStoreCheck else { return body(.success(cache.revision)) }
        sharedStoreCheck.check { [cache] outcome in body(outcome.map { _ in cache.revision }) }
    }

    /// The largest item id, or nil for an empty feed. Only grows.
    ///
    /// Cost: cached on SQLite (read once); on a shared store a shared check, as for
    /// `currentRevision()`.
    public func newestID() -> Int64? {
        _ = sharedStoreCheck?.checkAndWait()
        if let known = cache.newestID { return known }
        guard let read = readNewestID() else { return nil }
        return cache.merge(newest: read)
    }

    /// The largest page the feed returns; larger limits are clamped.
    public static let maxPageSize = 100

    /// Clamps a page size into 1...maxPageSize; the API layer validates, this is only a safety net.
    func clamp(_ limit: Int) -> Int {
        min(max(1, limit), Self.maxPageSize)
    }

    // MARK: Reading

    /// Items with id < `before` (all items when nil), newest first; `hasMore` says older items exist.
    public func page(before: Int64?, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let rows = try store.read { try $0.items(before: before ?? Int64.max, limit: limit + 1) }
        return ItemPage(items: Array(rows.prefix(limit)), hasMore: rows.count > limit)
    }

    /// The `limit` items immediately newer than `after` (contiguous), newest first; `hasMore`
    /// says even newer items exist, i.e. the client still has a gap above these.
    public func newer(after: Int64, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let rows = try store.read { try $0.oldestItems(after: after, limit: limit + 1) }
        return ItemPage(items: Array(rows.prefix(limit).reversed()), hasMore: rows.count > limit)
    }

    /// Throws if the store does not answer a trivial query that touches the items table.
    public func checkHealth() throws {
        _ = try store.read { try $0.maxItemID() }
    }

    // MARK: Writing

    /// Validates and stores a new item, stamped with the clock's now.
    ///
    /// Throws `FeedError.invalid` naming every bad field, and changes nothing in that case.
    public func addItem(_ new: NewItem) throws -> Item {
        let valid = try Validation.check(new)
        let now = clock.now()
        let createdAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let draft = ItemDraft(title: valid.title, body: valid.body, author: valid.author, createdAt: createdAt)
        let id = try store.write { store in
            let id = try store.insertItems(count: 1) { _ in draft }!
            // A hand-added item resets the generator's interval, like a generated one.
            try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
            return id
        }
        cache.noteInserted(upTo: id)
        return Item(id: id, title: valid.title, body: valid.body, author: valid.author,
                    createdAt: Date(timeIntervalSince1970: Double(createdAt)))
    }

    /// Gives disk space back after large writes (SQLite: folds the write-ahead log into the
    /// database file); nothing to do on PostgreSQL. Best effort.
    public func compactStorage() {
        store.compact()
    }
}

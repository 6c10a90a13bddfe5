import Foundation

/// The feed: keyset pages of items, refreshes that remember each session, and the demo generator.
///
/// Safe to call from many threads at once: writes are serialized by the store (across processes
/// too, for a shared store), reads run on pooled connections.
public final class Feed: Sendable {
    public let store: any FeedStore
    public let clock: any FeedClock
    public let configuration: FeedConfiguration
    private let cache: Locked<Cache>
    /// Group commit for `refresh(…, completion:)`.
    let refreshBatcher = RefreshBatcher()

    /// In-memory facts that save the API layer a query per request.
    private struct Cache {
        var revision: UInt64 = 0
        /// nil inside `.some` means "the feed is empty"; outer nil means "not read yet".
        var newestID: Int64?? = nil
    }

    public init(store: any FeedStore, clock: any FeedClock = SystemClock(), configuration: FeedConfiguration = .init()) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        self.cache = Locked(Cache())
        // Another process sharing the store inserted: move the caches as if the insert were ours.
        // Registered before the first read, so no insert can fall between the read and the hook.
        let cache = self.cache
        store.observeForeignInserts { newest in
            cache.withLock { cache in
                cache.revision &+= 1
                if let newest {
                    cache.newestID = .some(Self.larger(cache.newestID ?? nil, newest))
                } else {
                    // Inserts may have been missed: forget, and read again on the next ask.
                    cache.newestID = nil
                }
            }
        }
        // Best effort: if the store does not answer now, `newestID` asks again later.
        if let newest = readNewestID() {
            cache.withLock { $0.newestID = .some(newest) }
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

    /// Increments on every committed insert in this process (a seed or a generated batch counts once),
    /// and when another process sharing the store reports inserts.
    ///
    /// It moves only after the commit, so data read after seeing revision R is at least as new as R.
    ///
    /// On a shared store it is checked against the store's newest id first (one indexed query),
    /// so an item another process committed and acknowledged is never hidden by a cache keyed
    /// on this revision, even before its notification arrives. If the store does not answer,
    /// the revision moves, so nothing cached is trusted while it is down.
    public var revision: UInt64 {
        if store.isShared { checkSharedStore() }
        return cache.withLock { $0.revision }
    }

    /// Moves the caches if the shared store has a newer item than they know.
    private func checkSharedStore() {
        let read = readNewestID()
        cache.withLock { cache in
            guard let newest = read else {
                cache.revision &+= 1
                return
            }
            if let known = cache.newestID, Self.larger(known, newest) == known { return }
            cache.revision &+= 1
            cache.newestID = .some(Self.larger(cache.newestID ?? nil, newest))
        }
    }

    /// The largest item id, or nil for an empty feed. Cached; only grows.
    public var newestID: Int64? {
        if store.isShared { checkSharedStore() }
        if let known = cache.withLock({ $0.newestID }) { return known }
        guard let read = readNewestID() else { return nil }
        return cache.withLock { cache in
            let merged = Self.larger(cache.newestID ?? nil, read)
            cache.newestID = .some(merged)
            return merged
        }
    }

    /// Records a committed insert whose largest new id is `id`.
    func noteInserted(upTo id: Int64) {
        cache.withLock { cache in
            cache.revision &+= 1
            // max(): two writers may report in either order after their commits.
            cache.newestID = .some(Self.larger(cache.newestID ?? nil, id))
        }
    }

    private static func larger(_ a: Int64?, _ b: Int64?) -> Int64? {
        switch (a, b) {
        case let (a?, b?): return max(a, b)
        default: return a ?? b
        }
    }

    /// Clamps a page size into 1...maxPageSize; the API layer validates, this is only a safety net.
    func clamp(_ limit: Int) -> Int {
        min(max(1, limit), max(1, configuration.maxPageSize))
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
        noteInserted(upTo: id)
        return Item(id: id, title: valid.title, body: valid.body, author: valid.author,
                    createdAt: Date(timeIntervalSince1970: Double(createdAt)))
    }
}

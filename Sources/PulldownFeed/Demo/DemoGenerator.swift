import Foundation
import Synchronization

/// Makes up new demo items: on refresh and on a timer when due, and on demand (the demo API).
struct DemoGenerator: Sendable {
    /// Seconds between generated items; 0 turns the generator off. It can change while the
    /// server runs (`Feed.newItemsEvery`): every copy of the generator reads the same one.
    var interval: TimeInterval {
        get { sharedInterval.value.withLock { $0 } }
        nonmutating set { sharedInterval.value.withLock { $0 = newValue } }
    }
    private let sharedInterval: SharedInterval
    /// Which demo items come next.
    let sequence: DemoSequence
    /// What the items it makes look like.
    let templates = DemoTemplates()

    private final class SharedInterval: Sendable {
        let value: Mutex<TimeInterval>
        init(_ value: TimeInterval) { self.value = Mutex(value) }
    }

    init(interval: TimeInterval, sequence: DemoSequence) {
        sharedInterval = SharedInterval(interval)
        self.sequence = sequence
    }

    /// Inserts 1 to 3 demo items if `interval` seconds have passed since the last item time.
    ///
    /// Called inside a write transaction, from a refresh or while a live stream is open (see
    /// `Feed.generateDueItems()`): nothing is generated while nobody pulls or listens, so the
    /// store cannot grow without bound. Returns the largest new id, if any.
    func generateIfDue(now: Date, in store: any FeedStoreWriting) throws -> Int64? {
        let interval = self.interval
        guard interval > 0 else { return nil }
        let nowSeconds = now.timeIntervalSince1970
        guard let last = try store.metaDouble(MetaKey.lastItemTime) else {
            // A store that was never seeded: start the interval now rather than burst at once.
            try store.setMeta(MetaKey.lastItemTime, double: nowSeconds)
            return nil
        }
        guard nowSeconds - last >= interval else { return nil }
        // Due: take the insert lock and read again, since another process may have generated
        // (or an item may have been posted) between the read and the lock.
        try store.lockForInserts()
        let elapsed = nowSeconds - (try store.metaDouble(MetaKey.lastItemTime) ?? last)
        guard elapsed >= interval else { return nil }

        let count = min(3, max(1, Int((elapsed / interval).rounded(.down))))
        // Spread over the recent past, at most one interval apart, the newest at now.
        let step = min(interval, elapsed / Double(count))
        let items = try insertNext(count, now: now, in: store) { index in
            Int64((nowSeconds - Double(count - 1 - index) * step).rounded(.down))
        }
        return items.last?.id
    }

    /// Inserts the next `count` items of the demo sequence, item `index` made `createdAt(index)`
    /// (all at `now` when nil), and makes `now` the last item time; inside a write transaction
    /// that holds the insert lock. Returns them, oldest first.
    func insertNext(_ count: Int, now: Date, in store: any FeedStoreWriting,
                    createdAt: ((Int) -> Int64)? = nil) throws -> [Item] {
        guard count > 0 else { return [] }
        try store.lockForInserts()
        let drawn = Int64(try store.metaDouble(MetaKey.demoItemsDrawn) ?? 0)
        let newestBefore = try store.maxItemID() ?? 0
        // The feed holds demo items only (`MetaKey.demoFeedThrough`) if nothing else came since.
        let demoOnly = Int64(try store.metaDouble(MetaKey.demoFeedThrough) ?? 0) == newestBefore
        let time = Int64(now.timeIntervalSince1970.rounded(.down))
        let drafts = (0..<count).map { index in
            templates.draft(number: sequence.number(at: drawn + Int64(index)), createdAt: createdAt?(index) ?? time)
        }
        guard let last = try store.insertItems(count: count, { drafts[$0] }) else { return [] }
        try store.setMeta(MetaKey.demoItemsDrawn, double: Double(drawn + Int64(count)))
        if demoOnly { try store.setMeta(MetaKey.demoFeedThrough, double: Double(last)) }
        try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
        let first = last - Int64(count) + 1
        return drafts.enumerated().map { index, draft in
            Item(id: first + Int64(index), title: draft.title, body: draft.body, author: draft.author,
                 createdAt: Date(timeIntervalSince1970: Double(draft.createdAt)), userFields: draft.userFields)
        }
    }
}

/// Which demo items the demo adds, in order, after a seed or a reset: the `k`th is demo item
/// `number(at: k)`, drawn from a generator seeded with `--seed`. So the same seed gives the same
/// items in the same order on every run, however they are split into batches and whoever adds
/// them; the store keeps how many were drawn (`MetaKey.demoItemsDrawn`), so a restart, or another
/// instance on a shared store, goes on from there.
struct DemoSequence: Sendable, Equatable {
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// The demo item number at `position` (from 0): a positive number spread over all of them.
    func number(at position: Int64) -> Int64 {
        var generator = SplitMix64(seed: seed, position: UInt64(bitPattern: position))
        return max(1, Int64(bitPattern: generator.next() >> 1))
    }
}

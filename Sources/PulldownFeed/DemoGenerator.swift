import Foundation
import Synchronization

/// Makes up new demo items on refresh, so a pull finds something new now and then.
struct DemoGenerator: Sendable {
    /// Seconds between generated items; 0 turns the generator off. It can change while the
    /// server runs (`Feed.newItemsEvery`): every copy of the generator reads the same one.
    var interval: TimeInterval {
        get { sharedInterval.value.withLock { $0 } }
        nonmutating set { sharedInterval.value.withLock { $0 = newValue } }
    }
    private let sharedInterval: SharedInterval
    /// What the items it makes look like.
    let templates = DemoTemplates()

    private final class SharedInterval: Sendable {
        let value: Mutex<TimeInterval>
        init(_ value: TimeInterval) { self.value = Mutex(value) }
    }

    init(interval: TimeInterval) {
        sharedInterval = SharedInterval(interval)
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
        let firstNumber = (try store.maxItemID() ?? 0) + 1
        let lastID = try store.insertItems(count: count) { index in
            let createdAt = nowSeconds - Double(count - 1 - index) * step
            return templates.draft(number: firstNumber + Int64(index), createdAt: Int64(createdAt.rounded(.down)))
        }
        try store.setMeta(MetaKey.lastItemTime, double: nowSeconds)
        return lastID
    }
}

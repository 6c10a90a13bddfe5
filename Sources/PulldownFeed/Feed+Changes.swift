import Foundation
import Synchronization

/// Items that change under the reader: edits, deletions, the change log, and hearing of them.
extension Feed {
    /// The most changes one listing returns; larger limits are clamped.
    public static let maxChangesListed = 1000

    /// Edits or deletes item `id`; `completion` gets what it did (or why not: `FeedError`
    /// `.noSuchItem`, `.deleted`, `.invalid`, or whatever the change's closure threw) later, on
    /// the writer queue, once committed and reported (caches have dropped what it touched).
    ///
    /// Changes that arrive together are committed in one transaction (group commit), each
    /// applied in order as if alone; one that is refused leaves the others be.
    public func change(_ id: Int64, _ change: ItemChange,
                       completion: @escaping @Sendable (Result<ChangeOutcome, any Error>) -> Void) {
        changes.submit(ChangeRequest(id: id, change: change)) { result in
            completion(result.flatMap { $0 })
        }
    }

    /// The edits and deletions numbered after `since`, oldest first, at most `limit`, each
    /// item's latest with the item as it is now. Throws `FeedError.changesExpired` when the log
    /// no longer holds all of them.
    public func changes(since: Int64, limit: Int) throws -> ChangeList {
        let limit = min(max(1, limit), Self.maxChangesListed)
        return try store.read { store in
            // The sequence first: every change up to it is listed, or a later one stands for it.
            let sequence = try store.sequence()
            let rows = try store.changes(since: since, limit: limit + 1)
            // The floor after the rows: a pruning between the two is seen.
            guard since >= (try store.changesFloor()) else { throw FeedError.changesExpired(since: since) }
            let listed = Array(rows.prefix(limit))
            let hasMore = rows.count > limit
            let through = listed.last?.sequence ?? 0
            return ChangeList(changes: listed, hasMore: hasMore, sequence: hasMore ? through : max(sequence, through))
        }
    }

    /// The feed's sequence as applied here: every edit and deletion numbered up to it is
    /// reflected by what is read after (and was reported to `observeChanges` first). Only grows.
    public func sequence() throws -> Int64 {
        if let known = revision.sequence { return known }
        let resets = revision.resets
        return revision.merge(sequence: try store.read { try $0.sequence() }, readAt: resets)
    }

    /// Calls `handler` after every committed edit or deletion, made here or by another process
    /// sharing the store (once read from the log), with the items changed, before `sequence()`
    /// says so; on the reporting thread.
    public func observeChanges(_ handler: @escaping @Sendable (ChangeNotice) -> Void) {
        inserts.changeObservers.add(handler)
    }

    /// Item `id` as it is now; nil when no item ever had that id. Throws `FeedError.deleted`
    /// for one that was deleted.
    public func item(_ id: Int64) throws -> Item? {
        guard let place = try store.read({ try $0.place(id) }) else { return nil }
        guard let item = place.item else { throw FeedError.deleted(id) }
        return item
    }
}

/// Another process committed changes up to a number (nil: some may have been missed): which
/// items, read from the log from where this process stands, reported as if they were ours.
final class ForeignChanges: Sendable {
    private let store: any FeedStore
    private let inserts: InsertReports
    /// Serializes the reads: the shared check and the notice may both ask, for the same changes.
    private let lock = Mutex(())

    init(store: any FeedStore, inserts: InsertReports) {
        self.store = store
        self.inserts = inserts
    }

    func apply(through target: Int64?) {
        lock.withLock { _ in
            guard let target, let known = inserts.revision.sequence else {
                // Missed, or nothing known to read from: forget everything, read again later.
                inserts.changesMissed()
                return
            }
            guard target > known else { return }
            do {
                let read = try store.read { try $0.changedItemIDs(since: known) }
                inserts.changed(ids: read.ids, through: max(target, read.through ?? target))
            } catch {
                inserts.changesMissed()
            }
        }
    }
}

import Synchronization

/// Where every committed insert and reset is reported, ours or another process's: the feed's
/// revision moves, then whoever observes them (the live events) hears of it.
struct InsertReports: Sendable {
    let revision: FeedRevision
    let observers: InsertObservers
    /// Hear of every reset, with the newest id it left (nil: none).
    let resetObservers = InsertObservers()

    /// A committed insert of ours whose largest new id is `id`.
    func inserted(upTo id: Int64) {
        revision.noteInserted(upTo: id)
        observers.announce(id)
    }

    /// Inserts another process reported, up to `newest` (nil: inserts may have been missed).
    func foreignInserts(upTo newest: Int64?) {
        revision.noteForeignInserts(upTo: newest)
        observers.announce(newest)
    }

    /// A committed reset of ours, which gave the feed identity `id` and left `newest` (nil: an
    /// empty feed).
    func reset(to id: FeedID, newest: Int64?) {
        revision.noteReset(to: id, newest: newest ?? 0)
        resetObservers.announce(newest)
    }

    /// A reset another process reported, with the newest id it left (0: none); nil when one may
    /// have been missed: the identity and the newest id are read again then, but nobody is told
    /// to start over (the inserts' own nil reads the newest again).
    func foreignReset(newest: Int64?) {
        revision.noteReset(to: nil, newest: newest)
        if let newest { resetObservers.announce(newest == 0 ? nil : newest) }
    }
}

/// Handlers called after every reported insert with its largest id (nil: inserts may have been
/// missed), or every reset with the newest id it left, on the reporting thread, outside any lock.
final class InsertObservers: Sendable {
    private let handlers = Mutex<[@Sendable (Int64?) -> Void]>([])

    func add(_ handler: @escaping @Sendable (Int64?) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    func announce(_ newest: Int64?) {
        for handler in handlers.withLock({ $0 }) { handler(newest) }
    }
}

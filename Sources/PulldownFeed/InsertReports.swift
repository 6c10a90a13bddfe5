import Synchronization

/// Where every committed insert and reset is reported, ours or another process's: the feed's
/// revision moves, then whoever observes them (the live events, the caches) hears of it.
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

    /// A committed reset of ours, which left `newest` (nil: an empty feed).
    func reset(newest: Int64?) {
        revision.noteReset(newest: newest)
        resetObservers.announce(newest)
    }

    /// A reset another process reported, with the newest id it left (0: none); nil when one may
    /// have been missed: nothing read before can be trusted then, but nobody is told to start
    /// over (the inserts' own nil reads the newest again).
    func foreignReset(newest: Int64?) {
        guard let newest else { return revision.noteReset(newest: nil, known: false) }
        reset(newest: newest == 0 ? nil : newest)
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

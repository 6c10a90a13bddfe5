import Synchronization

/// Where every committed insert (and another process's reset) is reported, ours or another
/// process's: the feed's revision moves, then whoever observes inserts (the live events) hears of it.
struct InsertReports: Sendable {
    let revision: FeedRevision
    let observers: InsertObservers

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

    /// Another process reset the store, or may have: the identity is read again, and observers
    /// read what is there anew.
    func foreignReset() {
        revision.noteForeignReset()
        observers.announce(nil)
    }
}

/// Handlers called after every reported insert with its largest id (nil: inserts may have been
/// missed), on the reporting thread, outside any lock.
final class InsertObservers: Sendable {
    private let handlers = Mutex<[@Sendable (Int64?) -> Void]>([])

    func add(_ handler: @escaping @Sendable (Int64?) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    func announce(_ newest: Int64?) {
        for handler in handlers.withLock({ $0 }) { handler(newest) }
    }
}

import Synchronization

/// Where every committed insert and reset is reported, ours or another process's: the feed's
/// revision moves, then whoever observes them (the live events) hears of it.
struct InsertReports: Sendable {
    let revision: FeedRevision
    let observers: InsertObservers
    /// Hear of every reset, with the newest id it left (nil: none).
    let resetObservers = InsertObservers()
    /// Hear of every change, before the sequence says it happened.
    let changeObservers = Observers<ChangeNotice>()

    /// Committed changes (ours, or another process's once read from the log) to items `ids`, up
    /// to number `through`: the observers hear of it first (caches drop what it touched), then
    /// the sequence moves, so a reader told a sequence is never served what it changed.
    func changed(ids: [Int64], through: Int64) {
        changeObservers.announce(ChangeNotice(ids: ids, through: through))
        revision.noteChanged(through: through)
    }

    /// Changes may have been missed (another process's, with a lost connection): every observer
    /// drops everything, and the sequence is read again.
    func changesMissed() {
        changeObservers.announce(ChangeNotice(ids: nil, through: nil))
        revision.noteChanged(through: nil)
    }

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
/// missed), or every reset with the newest id it left.
typealias InsertObservers = Observers<Int64?>

/// Handlers called with every notice reported, on the reporting thread, outside any lock.
final class Observers<Notice: Sendable>: Sendable {
    private let handlers = Mutex<[@Sendable (Notice) -> Void]>([])

    func add(_ handler: @escaping @Sendable (Notice) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    func announce(_ notice: Notice) {
        for handler in handlers.withLock({ $0 }) { handler(notice) }
    }
}

/// Edits and deletions committed (`Feed.observeChanges(_:)`).
public struct ChangeNotice: Sendable, Equatable {
    /// The items changed; nil when any may have been (changes were missed): forget everything.
    public let ids: [Int64]?
    /// The largest change number among them; nil with `ids`.
    public let through: Int64?

    public init(ids: [Int64]?, through: Int64?) {
        self.ids = ids
        self.through = through
    }
}

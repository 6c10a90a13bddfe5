import Synchronization

/// What the feed remembers between calls, so the API layer saves a query per request: a revision
/// that moves with every insert, and the newest item id.
///
/// Both only move forward. Callers report inserts after they commit, so data read after seeing
/// revision R is at least as new as R. Every insert, ours or another process's, is reported
/// here, so this is also where insert observers (the live events) hear of them.
final class FeedCache: Sendable {
    private struct State {
        var revision: UInt64 = 0
        /// nil inside `.some` means "the feed is empty"; outer nil means "not read yet".
        var newestID: Int64?? = nil
    }

    private let state = Mutex(State())
    private let observers = Mutex<[@Sendable (Int64?) -> Void]>([])

    /// Calls `handler` after every reported insert with its largest id (nil: inserts may have
    /// been missed), on the reporting thread, outside any lock.
    func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
        observers.withLock { $0.append(handler) }
    }

    private func announce(_ newest: Int64?) {
        for handler in observers.withLock({ $0 }) { handler(newest) }
    }

    var revision: UInt64 { state.withLock { $0.revision } }

    /// The newest id as known: `.some(nil)` for an empty feed, nil when it must be read.
    var newestID: Int64?? { state.withLock { $0.newestID } }

    /// Records a committed insert whose largest new id is `id`.
    func noteInserted(upTo id: Int64) {
        state.withLock { state in
            state.revision &+= 1
            // larger(): two writers may report in either order after their commits.
            state.newestID = .some(Self.larger(state.newestID ?? nil, id))
        }
        announce(id)
    }

    /// Records inserts another process reported, up to `newest`; nil when inserts may have been
    /// missed, so the newest id is forgotten and read again on the next ask.
    func noteForeignInserts(upTo newest: Int64?) {
        state.withLock { state in
            state.revision &+= 1
            if let newest {
                state.newestID = .some(Self.larger(state.newestID ?? nil, newest))
            } else {
                state.newestID = nil
            }
        }
        announce(newest)
    }

    /// Records what a shared store just said is its newest id (outer nil: it did not answer).
    ///
    /// The revision moves when that is news, and when the store did not answer, so that nothing
    /// cached is trusted while it is down.
    func noteStoreAnswered(newest read: Int64??) {
        state.withLock { state in
            guard let newest = read else {
                state.revision &+= 1
                return
            }
            if let known = state.newestID, Self.larger(known, newest) == known { return }
            state.revision &+= 1
            state.newestID = .some(Self.larger(state.newestID ?? nil, newest))
        }
    }

    /// Merges a newest id read from the store without a change of revision (a first read);
    /// returns the newest id now known.
    func merge(newest read: Int64?) -> Int64? {
        state.withLock { state in
            let merged = Self.larger(state.newestID ?? nil, read)
            state.newestID = .some(merged)
            return merged
        }
    }

    private static func larger(_ a: Int64?, _ b: Int64?) -> Int64? {
        switch (a, b) {
        case let (a?, b?): return max(a, b)
        default: return a ?? b
        }
    }
}

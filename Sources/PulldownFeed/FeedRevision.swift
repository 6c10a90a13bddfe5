import Synchronization

/// What the feed remembers between calls, so the API layer saves a query per request: a revision
/// that moves with every insert and reset, the newest item id, and a generation that moves with
/// every reset.
///
/// The revision and the generation only move forward, and so does the newest id but for a reset.
/// Inserts and resets are reported after they commit, so data read after seeing revision R (or
/// generation G) is at least as new as R (or G).
final class FeedRevision: Sendable {
    private struct State {
        var revision: UInt64 = 0
        /// The largest item id, 0 for an empty feed; nil until read (or after inserts may have
        /// been missed).
        var newestID: Int64?
    }

    private let state = Mutex(State())
    /// Apart from `state`: read by every page that could be kept, it costs no lock.
    private let generations = Atomic<UInt64>(0)

    var current: UInt64 { state.withLock { $0.revision } }

    var generation: UInt64 { generations.load(ordering: .acquiring) }

    /// The newest id as known (0: the feed is empty); nil when it must be read.
    var newestID: Int64? { state.withLock { $0.newestID } }

    /// Records a committed insert whose largest new id is `id`.
    func noteInserted(upTo id: Int64) {
        state.withLock { state in
            state.revision &+= 1
            // max: two writers may report in either order after their commits.
            state.newestID = max(state.newestID ?? 0, id)
        }
    }

    /// Records inserts another process reported, up to `newest`; nil when inserts may have been
    /// missed, so the newest id is forgotten and read again on the next ask.
    func noteForeignInserts(upTo newest: Int64?) {
        state.withLock { state in
            state.revision &+= 1
            state.newestID = newest.map { max(state.newestID ?? 0, $0) }
        }
    }

    /// Records what a shared store just said is its newest id (0: empty). The revision moves
    /// when that is news.
    func noteStoreAnswered(newest: Int64) {
        state.withLock { state in
            if let known = state.newestID, known >= newest { return }
            state.revision &+= 1
            state.newestID = newest
        }
    }

    /// Records a committed reset that left `newest` (nil: an empty feed), or one that may have
    /// been missed (`known` false): the newest id is read again then.
    func noteReset(newest: Int64?, known: Bool = true) {
        state.withLock { state in
            state.revision &+= 1
            state.newestID = known ? newest ?? 0 : nil
        }
        generations.add(1, ordering: .releasing)
    }

    /// Records that a shared store did not answer its check: the revision moves, so that nothing
    /// cached is trusted while it is down.
    func noteStoreDidNotAnswer() {
        state.withLock { $0.revision &+= 1 }
    }

    /// Merges a newest id read from the store (0: empty) without a change of revision (a first
    /// read); returns the newest id now known.
    func merge(newest read: Int64) -> Int64 {
        state.withLock { state in
            let merged = max(state.newestID ?? 0, read)
            state.newestID = merged
            return merged
        }
    }
}

import Synchronization

/// What the feed remembers between calls, so the API layer saves a query per request: a revision
/// that moves with every insert and reset, the newest item id, and the feed's identity.
///
/// The revision only moves forward, and so does the newest id but for a reset, which leaves what
/// it refilled. Inserts and resets are reported after they commit, so data read after seeing
/// revision R is at least as new as R, and the identity known is never one the store has not had
/// yet. What is read from the store is merged with the number of resets noted before the read
/// (`resets`), so a read made before a reset never brings the old feed back.
final class FeedRevision: Sendable {
    private struct State {
        var revision: UInt64 = 0
        /// The largest item id, 0 for an empty feed; nil until read (or after inserts or a reset
        /// may have been missed).
        var newestID: Int64?
        /// nil until read, and after another process may have reset the store.
        var feedID: FeedID?
        /// Moves with every reset noted, so that what was read before one is not kept.
        var resets: UInt64 = 0
        /// The feed's sequence as applied here: every change numbered up to it was reported to
        /// the change observers (what it touched is dropped from caches) before it moved here.
        /// nil until read, and after changes may have been missed.
        var sequence: Int64?
    }

    private let state = Mutex(State())

    var current: UInt64 { state.withLock { $0.revision } }

    /// The newest id as known (0: the feed is empty); nil when it must be read.
    var newestID: Int64? { state.withLock { $0.newestID } }

    /// The feed's identity as known; nil when it must be read.
    var feedID: FeedID? { state.withLock { $0.feedID } }

    /// The sequence as applied (see `State.sequence`); nil when it must be read.
    var sequence: Int64? { state.withLock { $0.sequence } }

    /// Resets noted so far: pass it to `merge(feedID:readAt:)` or `merge(newest:readAt:)` with
    /// what was read after.
    var resets: UInt64 { state.withLock { $0.resets } }

    /// Records a committed reset: ours, which gave the feed identity `id` and left `newest` as its
    /// newest id (0: empty), or another process's, of which either may be unknown (nil: read
    /// again on the next ask), as when one may have been missed.
    func noteReset(to id: FeedID?, newest: Int64?) {
        state.withLock { state in
            state.revision &+= 1
            state.resets &+= 1
            state.feedID = id
            state.newestID = newest
            state.sequence = nil
        }
    }

    /// Merges an identity read from the store after `resets` was `readAt`; one read before a
    /// reset that was noted since is not kept. Returns the identity now known.
    func merge(feedID read: FeedID, readAt: UInt64) -> FeedID {
        state.withLock { state in
            if state.resets == readAt { state.feedID = read }
            return state.feedID ?? read
        }
    }

    /// Records a committed insert whose largest new id is `id`.
    func noteInserted(upTo id: Int64) {
        state.withLock { state in
            state.revision &+= 1
            // max: two writers may report in either order after their commits.
            state.newestID = max(state.newestID ?? 0, id)
            // Every change numbered before it was reported before it: writes are serialized.
            state.sequence = state.sequence.map { max($0, id) }
        }
    }

    /// Records committed changes up to number `through`, reported already (see `Feed`), or,
    /// with nil, that some may have been missed: the sequence is read again.
    func noteChanged(through: Int64?) {
        state.withLock { state in
            state.revision &+= 1
            state.sequence = through.flatMap { through in state.sequence.map { max($0, through) } }
        }
    }

    /// Merges a sequence read from the store after `resets` was `readAt` (a first read, with
    /// nothing to report); one read before a reset noted since is not kept. Returns the sequence
    /// now known.
    func merge(sequence read: Int64, readAt: UInt64) -> Int64 {
        state.withLock { state in
            guard state.resets == readAt else { return state.sequence ?? read }
            let merged = max(state.sequence ?? 0, read)
            state.sequence = merged
            return merged
        }
    }

    /// Records inserts another process reported, up to `newest`; nil when inserts may have been
    /// missed, so the newest id is forgotten and read again on the next ask.
    func noteForeignInserts(upTo newest: Int64?) {
        state.withLock { state in
            state.revision &+= 1
            state.newestID = newest.map { max(state.newestID ?? 0, $0) }
            // Their changes before it were heard before it (notices come in commit order).
            state.sequence = newest.flatMap { newest in state.sequence.map { max($0, newest) } }
        }
    }

    /// Records what a shared store just said is its newest id (0: empty) and identity, read
    /// after `resets` was `readAt`. The revision moves when either is news; neither is kept when
    /// a reset was noted since. A new identity is a reset another process made: the newest id
    /// read with it replaces the one known, which belonged to the old feed.
    func noteStoreAnswered(newest: Int64, feedID: FeedID?, readAt: UInt64) {
        state.withLock { state in
            guard state.resets == readAt else { return }
            var news = false
            if let feedID, state.feedID != feedID {
                state.feedID = feedID
                state.newestID = newest
                news = true
            }
            if state.newestID.map({ $0 < newest }) ?? true {
                state.newestID = newest
                news = true
            }
            if news { state.revision &+= 1 }
        }
    }

    /// Records that a shared store did not answer its check: the revision moves, so that nothing
    /// cached is trusted while it is down.
    func noteStoreDidNotAnswer() {
        state.withLock { $0.revision &+= 1 }
    }

    /// Merges a newest id read from the store (0: empty) after `resets` was `readAt`, without a
    /// change of revision (a first read); one read before a reset noted since is not kept.
    /// Returns the newest id now known.
    func merge(newest read: Int64, readAt: UInt64) -> Int64 {
        state.withLock { state in
            guard state.resets == readAt else { return state.newestID ?? read }
            let merged = max(state.newestID ?? 0, read)
            state.newestID = merged
            return merged
        }
    }
}

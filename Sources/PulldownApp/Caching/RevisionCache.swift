import Synchronization

/// Answers built from the feed, each kept with the stamp it was built at (the feed's revision,
/// and whatever else went into it) and given back only while that stamp is current: the newest
/// pages, and `/` with the newest page in it.
///
/// The stamp must be read before the value is built: the feed moves its revision only after a
/// commit, so what the build reads is at least as new as the stamp it is kept under. A value
/// built at an older stamp than the one kept does not replace it.
///
/// Keys come from requests (a page size, the base URL a `Host` header gives), so the values are
/// kept within a budget, the most recently used first (`LRUCache`): a client that sends a new
/// key with every request only pushes out older answers.
final class RevisionCache<Key: Hashable & Sendable, Stamp: Comparable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let stamp: Stamp
        let value: Value
    }

    private struct State {
        var entries: LRUCache<Key, Entry>
        /// The last entry given, compared before any key is hashed: most requests in a row ask
        /// for the same answer (the newest page, `/`), and hashing a key that holds a base URL
        /// costs a newest page more than the rest of finding it.
        var last: (key: Key, entry: Entry)?
    }

    private let state: Mutex<State>
    private let cost: @Sendable (Value) -> Int

    /// At most `budget` of what `cost` counts (bytes, say; entries by default).
    init(budget: Int = 256, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        state = Mutex(State(entries: LRUCache(capacity: budget)))
        self.cost = cost
    }

    /// The value kept for `key` if it was built at `stamp`.
    func value(for key: Key, at stamp: Stamp) -> Value? {
        state.withLock { state in
            if let last = state.last, last.entry.stamp == stamp, last.key == key { return last.entry.value }
            guard let entry = state.entries.value(for: key), entry.stamp == stamp else { return nil }
            state.last = (key, entry)
            return entry.value
        }
    }

    /// Keeps `value`, built at `stamp`, unless one built at a newer stamp is kept already.
    func keep(_ value: Value, for key: Key, at stamp: Stamp) {
        let cost = cost(value)
        state.withLock { state in
            if let kept = state.entries.value(for: key), kept.stamp > stamp { return }
            state.entries.insert(Entry(stamp: stamp, value: value), for: key, cost: cost)
            // What the last one gave may be gone from the budget now: it is asked again.
            state.last = nil
        }
    }

    /// The value kept for `key` at `stamp`, else the one `build` makes, kept.
    func value(for key: Key, at stamp: Stamp, build: () throws -> Value) rethrows -> Value {
        if let kept = value(for: key, at: stamp) { return kept }
        let built = try build()
        keep(built, for: key, at: stamp)
        return built
    }

    /// How many values are kept.
    var count: Int { state.withLock { $0.entries.count } }
}

import Synchronization

/// How many event streams may be open at once. A stream is counted when it is admitted, before
/// it joins, so the limit holds under a burst of joins.
final class StreamAdmission: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Streams admitted and not released.
    var count: Int { open.load(ordering: .relaxed) }

    /// Takes a slot; false when all `limit` are taken.
    func admit() -> Bool {
        while true {
            let count = open.load(ordering: .relaxed)
            guard count < limit else { return false }
            if open.compareExchange(expected: count, desired: count + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    /// Gives a slot back; once for every `admit()` that returned true.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}

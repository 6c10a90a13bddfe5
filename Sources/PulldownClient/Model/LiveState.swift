/// The "N new items" pill as a pure state machine: the twin of the page's `live-state.js`, held to
/// the same rules by the same cases.
///
/// Feed it the stream's events and what the feed shows; it says what the pill shows (the ids the
/// stream sent that the feed does not show yet, each once, none deleted since, and whether the
/// stream skipped some), where a new stream starts, and what to announce. Event ids are points of
/// the server's one sequence (inserts, edits, deletions), so the furthest one seen is where a
/// stream opened again goes on from. No I/O, no clock.
public struct LiveState: Sendable, Hashable {
    /// What the pill shows: `count` new items, and "more than" that when the stream skipped some.
    public struct Pill: Sendable, Hashable {
        public let count: Int
        public let more: Bool

        public init(count: Int, more: Bool = false) {
            self.count = count
            self.more = more
        }
    }

    /// The newest id the feed shows.
    private var newest: Int64 = 0
    /// The furthest point of the sequence the stream or the feed reached.
    private var latest: Int64 = 0
    private var pending: Set<Int64> = []
    /// After a gap: the stream skipped items below this id.
    private var missedBelow: Int64?
    /// The last pill announced (nil: none, or an empty one).
    private var said: Pill?

    public init() {}

    /// An `items` event (ids newest first; `sequence` its id, where given): each id counts once,
    /// and none the feed shows.
    public mutating func arrived(ids: [Int64], gap: Bool, sequence: Int64 = 0) -> Pill {
        for id in ids {
            if id > newest { pending.insert(id) }
            latest = max(latest, id)
        }
        latest = max(latest, sequence)
        if gap, let oldest = ids.last { missedBelow = min(missedBelow ?? oldest, oldest) }
        return pill
    }

    /// An `updated` or `deleted` event numbered `sequence` (`deleted`: the id of the item gone);
    /// a deleted item that was waiting no longer counts.
    public mutating func changed(sequence: Int64, deleted: Int64? = nil) -> Pill {
        latest = max(latest, sequence)
        if let deleted { pending.remove(deleted) }
        return pill
    }

    /// The feed shows up to `newest` (it loaded, or a refresh ended), and reflects the sequence up
    /// to `changes`. A refresh brings every newer item or starts over from the newest page, so a
    /// gap below `newest` is closed too.
    public mutating func shown(_ newest: Int64, changes: Int64 = 0) -> Pill {
        self.newest = newest
        latest = max(latest, changes)
        pending = pending.filter { $0 > newest }
        if let below = missedBelow, newest >= below { missedBelow = nil }
        return pill
    }

    /// A stream opens: its cursor. It starts after all the feed has, shown or waiting, so only what
    /// is new comes.
    public var opening: Int64 { max(newest, latest) }

    /// What to announce once the count has been still a moment, or nil when it was said already or
    /// is 0 (the refresh that emptied the pill says its own result).
    public mutating func announce() -> Pill? {
        let now = pill.count > 0 ? pill : nil
        guard now != said else { return nil }
        said = now
        return now
    }

    /// What the pill shows now.
    public var pill: Pill { Pill(count: pending.count, more: missedBelow != nil) }

    /// The wait before the `attempt`th try in a row at a stream the server refused (429, 5xx):
    /// `base` (its `Retry-After`, else 5 s) doubling to a minute, plus up to half again at random
    /// (`random` in 0...1) so that clients do not all come back at once.
    public static func retryDelay(attempt: Int, base: Duration = .seconds(5), random: Double) -> Duration {
        let doubled = base * (1 << min(attempt, 16))
        return min(.seconds(60), doubled) * (1 + random / 2)
    }
}

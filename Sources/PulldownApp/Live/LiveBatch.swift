import PulldownFeed
import PulldownHTTP

/// What the feed did between two points of its sequence, as the events every subscriber at the
/// first point shares (`items` for inserts, `updated` and `deleted` for changes, in the order of
/// their numbers, each number its event's id), and what a subscriber elsewhere gets instead.
///
/// Built once per notice: the events' bytes are made once for each base URL its subscribers
/// reached the server by (`BaseURL`: an item's pictures go out absolute) and written to every
/// subscriber that was exactly at `from`, which after the first batch is all of them.
struct LiveBatch {
    /// One event's worth.
    enum Entry: Equatable {
        /// Inserts next to each other in the sequence, newest first; `number` is the event's id:
        /// the newest item's, or the batch's end for the newest items of a gap.
        case items([Item], gap: Bool, number: Int64)
        case change(Change)

        var number: Int64 {
            switch self {
            case .items(_, _, let number): number
            case .change(let change): change.sequence
            }
        }
    }

    /// Where every subscriber had been sent up to before this batch.
    let from: Int64
    /// Where a subscriber that got it stands: the end of what was read, past numbers no event
    /// shows (an insert deleted since, or its number taken by a later change of the same item).
    let to: Int64
    /// In the order of their numbers.
    let entries: [Entry]

    /// Items in one event, at most; more new ones are a gap (the client refreshes).
    static let limit = 10
    /// Changes one batch carries, at most; a subscriber further behind starts over.
    static let maxChanges = Feed.maxChangesListed

    /// The inserts `items` (newest first) after `from`, alone.
    init(from: Int64, items: [Item], gap: Bool) {
        self.init(from: from, to: items.first?.id ?? from, items: items, gap: gap, changes: [])
    }

    /// Inserts (newest first, at most `limit`, `gap` when more) and changes (oldest first) after
    /// `from`, up to `to`, merged into events in the order of their numbers. With a gap the
    /// items go last, numbered `to`: the client refreshes from them anyway.
    init(from: Int64, to: Int64, items: [Item], gap: Bool, changes: [Change]) {
        self.from = from
        var entries: [Entry] = []
        let ascending = Array(items.reversed())
        var run: [Item] = []
        var next = 0
        func flush() {
            if let newest = run.last { entries.append(.items(run.reversed(), gap: false, number: newest.id)) }
            run = []
        }
        for change in changes {
            if !gap {
                while next < ascending.count, ascending[next].id < change.sequence {
                    run.append(ascending[next])
                    next += 1
                }
                flush()
            }
            entries.append(.change(change))
        }
        let last = max(to, items.first?.id ?? to, changes.last?.sequence ?? to)
        if gap {
            if !items.isEmpty { entries.append(.items(items, gap: true, number: last)) }
        } else {
            run += ascending[next...]
            flush()
        }
        self.entries = entries
        self.to = last
    }

    /// What a subscriber at `cursor` has not been sent: the newest `limit` items after it and
    /// every change after it. The one read behind both a subscriber's catch-up and every notice's
    /// fan-out. Throws `FeedError.changesExpired` when the changes after `cursor` are no longer
    /// kept, or are more than `maxChanges`. `heard`: the notice that asked for the read, committed
    /// (a change is announced before the sequence says so).
    static func read(after cursor: Int64, from source: any LiveSource, heard: Int64? = nil) throws -> LiveBatch {
        // First, and the batch ends there: every insert and change numbered up to it committed
        // before the two reads below, so both see all of them. What they see past it (committed
        // between or during them) is left to its own notice: an insert committed after the items
        // were read but numbered below a change read after it would otherwise be passed over.
        let sequence = max(try source.sequence(), heard ?? 0)
        let latest = try source.latestItems(newerThan: cursor, limit: limit)
        let changed = try source.changes(since: cursor, limit: maxChanges)
        guard !changed.hasMore else { throw FeedError.changesExpired(since: cursor) }
        return LiveBatch(from: cursor, to: sequence, items: latest.items.filter { $0.id <= sequence }, gap: latest.gap,
                         changes: changed.changes.filter { $0.sequence <= sequence })
    }

    /// The events as sent to a subscriber that was at `from`, for `base`.
    func sharedEvent(base: String) -> [UInt8] { Self.events(entries, base: base) }

    enum Delivery: Equatable {
        /// The shared events.
        case shared
        /// Already has all of it (its cursor came from a newer source).
        case nothing
        /// Part of it: these events (perhaps none, when all it lacks is numbers no event shows),
        /// to be written for the subscriber's base (`events(_:base:)`).
        case own([Entry])
    }

    /// What a subscriber at `cursor` gets, so that it sees every insert and change once.
    func delivery(for cursor: Int64) -> Delivery {
        if cursor == from { return .shared }
        if cursor >= to { return .nothing }
        let own = entries.compactMap { entry -> Entry? in
            switch entry {
            case .change(let change):
                return change.sequence > cursor ? entry : nil
            case .items(let items, let gap, let number):
                let newer = items.filter { $0.id > cursor }
                guard !newer.isEmpty else { return nil }
                // Below `from` (not expected: subscribers are caught up when they join), or inside
                // a batch that had a gap: items between the cursor and the listed ones may be
                // missing, so the gap flag tells the client to refresh.
                return .items(newer, gap: cursor < from || (gap && newer.count == items.count), number: number)
            }
        }
        return .own(own)
    }

    /// `entries` as events, for `base`.
    static func events(_ entries: [Entry], base: String) -> [UInt8] {
        entries.reduce(into: []) { bytes, entry in
            switch entry {
            case .items(let items, let gap, let number):
                bytes += ServerSentEvents.event("items", id: number, data: ResponseJSON.liveItems(items, gap: gap, base: base))
            case .change(let change):
                bytes += event(change, base: base)
            }
        }
    }

    /// `event: updated` with the item as data, or `event: deleted` with `{"id": …}`; the
    /// change's number is the event's id.
    static func event(_ change: Change, base: String) -> [UInt8] {
        switch change.kind {
        case .updated(let item):
            return ServerSentEvents.event("updated", id: change.sequence, data: ResponseJSON.item(item, base: base))
        case .deleted(let id):
            var json = JSONWriter(capacity: 24)
            json.beginObject()
            json.key("id"); json.integer(id)
            json.endObject()
            return ServerSentEvents.event("deleted", id: change.sequence, data: json.bytes)
        }
    }

    /// `event: reset`: the feed started over and its newest item is `newest` (nil: it is empty),
    /// which is the event's id (0 for none), so a reconnect resumes from the new feed.
    static func resetEvent(newest: Int64?) -> [UInt8] {
        var json = JSONWriter(capacity: 32)
        json.beginObject()
        json.key("newestId")
        if let newest { json.integer(newest) } else { json.null() }
        json.endObject()
        return ServerSentEvents.event("reset", id: newest ?? 0, data: json.bytes)
    }

    /// `event: expired`: what a subscriber missed is no longer all kept (or is too much to send);
    /// it starts over from the newest page. Its id is where the feed is now, `sequence`, which
    /// the data says too (`{"changes": …}`).
    static func expiredEvent(at sequence: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 32)
        json.beginObject()
        json.key("changes"); json.integer(sequence)
        json.endObject()
        return ServerSentEvents.event("expired", id: sequence, data: json.bytes)
    }
}

import PulldownFeed
import PulldownHTTP

/// The items one insert (or one burst of inserts) brought, as the `items` event every
/// subscriber shares, and what a subscriber whose cursor is elsewhere gets instead.
///
/// Built once per insert: the event's bytes are made once for each base URL its subscribers
/// reached the server by (`BaseURL`: an item's pictures go out absolute) and written to every
/// subscriber that was exactly at `from`, which after the first event is all of them.
struct LiveBatch {
    /// The newest item id every subscriber had been sent before this batch.
    let from: Int64
    /// The newest of the new items, newest first, at most `LiveBatch.limit`.
    let items: [Item]
    /// More than `limit` items are new: the client should refresh instead of inserting these.
    let gap: Bool

    /// Items in one event, at most.
    static let limit = 10

    /// The newest `limit` items after `cursor`: what a subscriber at `cursor` has not been sent.
    /// The one read behind both a subscriber's catch-up and an insert's fan-out.
    static func read(after cursor: Int64, from source: any LiveSource) throws -> LiveBatch {
        let latest = try source.latestItems(newerThan: cursor, limit: limit)
        return LiveBatch(from: cursor, items: latest.items, gap: latest.gap)
    }

    /// The newest id in the batch: a subscriber that got it is at `to`.
    var to: Int64 { items.first?.id ?? from }

    /// The event as sent to a subscriber that was at `from`, for `base`.
    func sharedEvent(base: String) -> [UInt8] { Self.event(items, gap: gap, base: base) }

    enum Delivery: Equatable {
        /// The shared event.
        case shared
        /// Already has all of it (its cursor came from a newer source).
        case nothing
        /// Part of it: these items, with this gap flag.
        case own([Item], gap: Bool)
    }

    /// What a subscriber at `cursor` gets, so that it sees every new item once.
    func delivery(for cursor: Int64) -> Delivery {
        if cursor == from { return .shared }
        if cursor >= to { return .nothing }
        let newer = items.filter { $0.id > cursor }
        // Below `from` (not expected: subscribers are caught up when they join), or inside a
        // batch that had a gap: items between the cursor and the listed ones may be missing,
        // so the gap flag tells the client to refresh.
        let gap = cursor < from || (gap && newer.count == items.count)
        return .own(newer, gap: gap)
    }

    /// `event: items`, with the newest item's id as the event id, for `base`.
    static func event(_ items: [Item], gap: Bool, base: String) -> [UInt8] {
        ServerSentEvents.event("items", id: items.first?.id ?? 0, data: ResponseJSON.liveItems(items, gap: gap, base: base))
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
}

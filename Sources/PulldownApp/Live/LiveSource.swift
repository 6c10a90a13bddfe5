import PulldownFeed
import PulldownHTTP

/// What the live events need from the feed. `Feed` provides it; tests give a fake.
protocol LiveSource: Sendable {
    /// The feed's sequence as applied (`Feed.sequence()`).
    func sequence() throws -> Int64
    /// The newest `limit` items with id > `cursor`, newest first; `gap` when more are newer.
    func latestItems(newerThan cursor: Int64, limit: Int) throws -> LatestItems
    /// The changes after `since`, oldest first (`Feed.changes(since:limit:)`).
    func changes(since: Int64, limit: Int) throws -> ChangeList
    /// Calls `handler` after every committed insert, made here or by another process sharing the
    /// store, with the largest new id (nil: inserts may have been missed, read again).
    func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void)
    /// Calls `handler` after every committed edit or deletion, made here or by another process.
    func observeChanges(_ handler: @escaping @Sendable (ChangeNotice) -> Void)
    /// Calls `handler` after every reset, made here or by another process sharing the store,
    /// with the newest id it left (nil: none).
    func observeResets(_ handler: @escaping @Sendable (Int64?) -> Void)
}

/// The feed is the source of live events.
extension Feed: LiveSource {}

/// Where one subscriber's events go: a `ResponseStream` in the server, a recorder in tests.
protocol EventSink: AnyObject, Sendable {
    /// Appends bytes and sends them as soon as the connection can.
    func write(_ bytes: [UInt8])
    /// Appends bytes to send at the next `wake()`.
    func enqueue(_ bytes: [UInt8])
    func wake()
    func close()
    /// Called once when the sink has ended (closed, or its client left).
    func onEnd(_ handler: @escaping @Sendable () -> Void)
}

extension ResponseStream: EventSink {}

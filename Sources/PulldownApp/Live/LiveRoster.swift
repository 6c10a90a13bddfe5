/// Who listens to the live events and how far each has been sent: the state `LiveEvents` keeps
/// on its queue, as a state machine that returns what to read and what to send, and does
/// neither itself.
///
/// A subscriber joins caught up to the newest item sent so far, and each batch after that is
/// handed to every subscriber whose cursor it continues: that is what makes "none twice, none
/// lost" hold across reconnects.
struct LiveRoster {
    private struct Subscriber {
        let sink: any EventSink
        var cursor: Int64
        /// Where the URLs in its events begin (`BaseURL`).
        let base: String
    }

    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// The newest item id announced; a subscriber without a cursor starts here.
    private(set) var lastSent: Int64

    init(lastSent: Int64) {
        self.lastSent = lastSent
    }

    var isEmpty: Bool { subscribers.isEmpty }
    var count: Int { subscribers.count }
    var sinks: [any EventSink] { subscribers.values.map(\.sink) }

    enum Arrival: Equatable {
        /// Joined at its cursor.
        case joined
        /// Behind what the others were sent (a reconnect with Last-Event-ID): read what it
        /// missed after this id, send it, then `join(_:at:)` where that left it.
        case catchUp(from: Int64)
    }

    /// A subscriber arrives with `cursor` (nil: the newest item sent), for events written for `base`.
    mutating func arrive(_ sink: any EventSink, cursor: Int64?, base: String = "") -> Arrival {
        let position = cursor ?? lastSent
        if position < lastSent { return .catchUp(from: position) }
        join(sink, at: position, base: base)
        return .joined
    }

    mutating func join(_ sink: any EventSink, at cursor: Int64, base: String = "") {
        subscribers[ObjectIdentifier(sink)] = Subscriber(sink: sink, cursor: cursor, base: base)
    }

    /// Removes a subscriber; one that never joined (its catch-up failed) is no error.
    mutating func leave(_ sink: any EventSink) {
        subscribers.removeValue(forKey: ObjectIdentifier(sink))
    }

    enum Insert: Equatable {
        /// Nothing to do: already sent, or remembered without a read because nobody listens.
        case nothing
        /// Nobody listens and the notice did not say how far inserts went: read the newest id
        /// and `remember(_:)` it.
        case readNewestID
        /// Read the items after this id and `deliver(_:)` them.
        case read(after: Int64)
    }

    /// An insert up to `newest` was heard (nil: inserts may have been missed).
    mutating func heard(_ newest: Int64?) -> Insert {
        if let newest, newest <= lastSent { return .nothing }
        guard subscribers.isEmpty else { return .read(after: lastSent) }
        // Nobody listens: remember how far inserts went without reading the items.
        guard let newest else { return .readNewestID }
        remember(newest)
        return .nothing
    }

    mutating func remember(_ newest: Int64) {
        lastSent = max(lastSent, newest)
    }

    /// The feed was reset and left `newest` (nil: nothing): every subscriber starts over from it,
    /// so none is sent the new feed's items as news. Returns them all, to be told. Ids keep
    /// growing across a reset, so cursors only move forward here too.
    mutating func reset(newest: Int64?) -> [any EventSink] {
        remember(newest ?? 0)
        subscribers = subscribers.mapValues { subscriber in
            Subscriber(sink: subscriber.sink, cursor: max(subscriber.cursor, lastSent), base: subscriber.base)
        }
        return sinks
    }

    /// Hands `batch` out: every subscriber it continues, with the event to send it, in no
    /// particular order. Their cursors and `lastSent` move to the batch's end. The shared event
    /// is written once per base URL.
    mutating func deliver(_ batch: LiveBatch) -> [(sink: any EventSink, event: [UInt8])] {
        var shared: [String: [UInt8]] = [:]
        var sends: [(sink: any EventSink, event: [UInt8])] = []
        sends.reserveCapacity(subscribers.count)
        for (key, subscriber) in subscribers {
            switch batch.delivery(for: subscriber.cursor) {
            case .shared:
                let event = shared[subscriber.base] ?? batch.sharedEvent(base: subscriber.base)
                shared[subscriber.base] = event
                sends.append((subscriber.sink, event))
            case .own(let items, let gap):
                if !items.isEmpty { sends.append((subscriber.sink, LiveBatch.event(items, gap: gap, base: subscriber.base))) }
            case .nothing:
                continue
            }
            subscribers[key]?.cursor = batch.to
        }
        lastSent = max(lastSent, batch.to)
        return sends
    }
}

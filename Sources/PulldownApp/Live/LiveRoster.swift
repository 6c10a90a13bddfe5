/// Who listens to the live events and how far each has been sent: the state `LiveEvents` keeps
/// on its queue, as a state machine that returns what to read and what to send, and does
/// neither itself.
///
/// Positions are points of the feed's one sequence (inserts, edits and deletions; an item's id is
/// its insert's number). A subscriber joins caught up to what was sent so far, and each batch
/// after that is handed to every subscriber whose cursor it continues: that is what makes "none
/// twice, none lost" hold across reconnects, for every kind of event.
struct LiveRoster {
    private struct Subscriber {
        let sink: any EventSink
        var cursor: Int64
        /// Where the URLs in its events begin (`BaseURL`).
        let base: String
    }

    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// How far the feed was announced; a subscriber without a cursor starts here.
    private(set) var lastSent: Int64
    /// What every stream starts with (`LiveEvents.broadcast(_:kept:)`), nil for nothing.
    var greeting: [UInt8]?

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

    /// A subscriber arrives with `cursor` (nil: where the feed was last announced), for events
    /// written for `base`.
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

    enum News: Equatable {
        /// Nothing to do: already sent, or remembered without a read because nobody listens.
        case nothing
        /// Nobody listens and the notice did not say how far the feed went: read its sequence
        /// and `remember(_:)` it.
        case readSequence
        /// Read what happened after this point and `deliver(_:)` it.
        case read(after: Int64)
    }

    /// The feed moved up to `position` (an insert's newest id, a change's number; nil: some may
    /// have been missed).
    mutating func heard(_ position: Int64?) -> News {
        if let position, position <= lastSent { return .nothing }
        guard subscribers.isEmpty else { return .read(after: lastSent) }
        // Nobody listens: remember how far the feed went without reading it.
        guard let position else { return .readSequence }
        remember(position)
        return .nothing
    }

    mutating func remember(_ newest: Int64) {
        lastSent = max(lastSent, newest)
    }

    /// The feed was reset and left its newest item at `position` (0: none): every subscriber
    /// starts over from it, so none is sent the new feed's items as news. Returns them all, to be
    /// told. The sequence keeps growing across a reset, so cursors only move forward here too.
    mutating func reset(to position: Int64) -> [any EventSink] {
        remember(position)
        subscribers = subscribers.mapValues { subscriber in
            Subscriber(sink: subscriber.sink, cursor: max(subscriber.cursor, lastSent), base: subscriber.base)
        }
        return sinks
    }

    /// What happened after `lastSent` is too much to send (or no longer kept): every subscriber
    /// behind `position` is moved there and returned, to be told to start over.
    mutating func expire(to position: Int64) -> [any EventSink] {
        remember(position)
        var behind: [any EventSink] = []
        for (key, subscriber) in subscribers where subscriber.cursor < position {
            behind.append(subscriber.sink)
            subscribers[key]?.cursor = position
        }
        return behind
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
                if !event.isEmpty { sends.append((subscriber.sink, event)) }
            case .own(let entries):
                if !entries.isEmpty { sends.append((subscriber.sink, LiveBatch.events(entries, base: subscriber.base))) }
            case .nothing:
                continue
            }
            subscribers[key]?.cursor = batch.to
        }
        lastSent = max(lastSent, batch.to)
        return sends
    }
}

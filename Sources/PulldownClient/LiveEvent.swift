import Foundation

/// One event of the server's live stream (`GET /api/events`), typed.
///
/// New kinds of events come as the server grows: switch over these with a `default`, and read an
/// event this version does not know (or cannot read) from ``unknown(name:data:)``.
public enum LiveEvent: Sendable, Hashable {
    /// Items were added: the ones newer than what this stream had sent, newest first, at most 10.
    case items(NewItems)
    /// An item was edited or deleted (``Change/updated(_:sequence:)`` with the item as it is now,
    /// or ``Change/deleted(id:sequence:)``), in the order of the server's sequence.
    case changed(Change)
    /// What this stream missed is no longer kept on the server: it goes on from `changes`, but
    /// edits and deletions before that are lost to it. Start over from the newest page (or
    /// refresh: a refresh lists them, or answers with a gap).
    case expired(changes: Int64)
    /// The feed started over (a reset): drop what you hold and start again from the newest page.
    /// The new feed's items never come as ``items(_:)``. nil: the new feed is empty.
    case reset(newestID: Int64?)
    /// The demo knobs changed; their new state.
    case demo(DemoKnobs)
    /// The demo's script moved (a step ran, it was paused or resumed): its state, as
    /// `GET /api/demo/script` gives it.
    case script(JSONValue)
    /// An event this version does not know, or whose data it could not read, as it came.
    case unknown(name: String, data: String)

    /// The typed event for `event`, its links resolved against `base`.
    init(_ event: ServerSentEvent, base: URL) {
        let decoder = Answer.decoder(base: base)
        let data = Data(event.data.utf8)
        switch event.name {
        case "items":
            if var items = try? decoder.decode(NewItems.self, from: data) {
                items.sequence = Int64(event.lastEventID) ?? items.items.first?.id ?? 0
                self = .items(items)
                return
            }
        case "updated":
            if let item = try? decoder.decode(Item.self, from: data), let sequence = Int64(event.lastEventID) {
                self = .changed(.updated(item, sequence: sequence)); return
            }
        case "deleted":
            if let gone = try? decoder.decode(Deleted.self, from: data), let sequence = Int64(event.lastEventID) {
                self = .changed(.deleted(id: gone.id, sequence: sequence)); return
            }
        case "expired":
            if let expired = try? decoder.decode(Expired.self, from: data) { self = .expired(changes: expired.changes); return }
        case "script":
            if let status = try? decoder.decode(JSONValue.self, from: data) { self = .script(status); return }
        case "reset":
            if let reset = try? decoder.decode(Reset.self, from: data) { self = .reset(newestID: reset.newestId); return }
        case "demo":
            if let knobs = try? decoder.decode(DemoKnobs.self, from: data) { self = .demo(knobs); return }
        default:
            break
        }
        self = .unknown(name: event.name, data: event.data)
    }

    private struct Reset: Decodable {
        let newestId: Int64?
    }

    private struct Deleted: Decodable {
        let id: Int64
    }

    private struct Expired: Decodable {
        let changes: Int64
    }
}

/// The items an `items` event brings.
public struct NewItems: Sendable, Hashable, Decodable {
    /// Newest first.
    public let items: [Item]
    /// More items were added than this event carries: the stream skipped some. Refresh to get
    /// them (a refresh then has a gap too, and starts over).
    public let gap: Bool
    /// The event's number in the server's one sequence (its `id`): the newest item's id, or
    /// further when the stream passed over numbers no event shows.
    public internal(set) var sequence: Int64 = 0

    public init(items: [Item], gap: Bool, sequence: Int64) {
        self.items = items
        self.gap = gap
        self.sequence = sequence
    }

    private enum CodingKeys: String, CodingKey { case items, gap }
}

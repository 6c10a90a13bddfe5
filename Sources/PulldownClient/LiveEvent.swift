import Foundation

/// One event of the server's live stream (`GET /api/events`), typed.
///
/// New kinds of events come as the server grows: switch over these with a `default`, and read an
/// event this version does not know (or cannot read) from ``unknown(name:data:)``.
public enum LiveEvent: Sendable, Hashable {
    /// Items were added: the ones newer than what this stream had sent, newest first, at most 10.
    case items(NewItems)
    /// The feed started over (a reset): drop what you hold and start again from the newest page.
    /// The new feed's items never come as ``items(_:)``. nil: the new feed is empty.
    case reset(newestID: Int64?)
    /// The demo knobs changed; their new state.
    case demo(DemoKnobs)
    /// An event this version does not know, or whose data it could not read, as it came.
    case unknown(name: String, data: String)

    /// The typed event for `event`, its links resolved against `base`.
    init(_ event: ServerSentEvent, base: URL) {
        let decoder = Answer.decoder(base: base)
        let data = Data(event.data.utf8)
        switch event.name {
        case "items":
            if let items = try? decoder.decode(NewItems.self, from: data) { self = .items(items); return }
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
}

/// The items an `items` event brings.
public struct NewItems: Sendable, Hashable, Decodable {
    /// Newest first.
    public let items: [Item]
    /// More items were added than this event carries: the stream skipped some. Refresh to get
    /// them (a refresh then has a gap too, and starts over).
    public let gap: Bool
}

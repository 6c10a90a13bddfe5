import Foundation
import PulldownFeed

/// The clients the demo knows and the profile each has, as a pure value: time comes in as
/// arguments, and `NetworkProfiles` carries out the rest (locks, timers, events).
///
/// Both parts are bounded, so no client can grow them without end: at most `maxProfiles`
/// clients have a profile, and "seen recently" is two generations of at most `maxSeen`
/// sessions each, the older dropped every `seenWindow` (so a client is listed for 5 to 10
/// minutes after its last request). Only sessions whose token was verified are recorded.
struct ClientProfiles {
    static let maxProfiles = 1_000
    static let maxSeen = 1_000
    static let seenWindow: TimeInterval = 300

    struct Seen: Equatable {
        /// The token the session was verified with; the same id with another token is not it.
        let token: String
        var at: Date
    }

    /// What is known of a request's session when it arrives.
    enum Arrival: Equatable {
        /// Verified before; its profile, if any.
        case known(NetworkProfile?)
        /// Not verified yet: its id's profile, and whether a verified token would be recorded.
        case unknown(NetworkProfile?, canRecord: Bool)
    }

    /// A client as the API lists it.
    struct Client: Equatable {
        let id: SessionID
        let lastSeen: Date?
        let profile: NetworkProfile?
    }

    /// Set refused: `maxProfiles` other clients have one.
    struct Full: Error {}

    private(set) var profiles: [SessionID: NetworkProfile] = [:]
    private var current: [SessionID: Seen] = [:]
    private var previous: [SessionID: Seen] = [:]
    private var generationStart: Date

    init(now: Date) {
        generationStart = now
    }

    /// A request carrying `token`, which names `id`, arrived at `now`.
    mutating func arrived(token: String, id: SessionID, now: Date) -> Arrival {
        turnGeneration(now: now)
        // One hash of the id for the common case, and none for its profile when there are none.
        let profile = profiles.isEmpty ? nil : profiles[id]
        if let index = current.index(forKey: id), current.values[index].token == token {
            current.values[index].at = now
            return .known(profile)
        }
        if previous[id]?.token == token {
            record(token: token, id: id, now: now)
            return .known(profile)
        }
        return .unknown(profile, canRecord: current.count < Self.maxSeen)
    }

    /// Records a session whose token was verified, if there is room.
    mutating func record(token: String, id: SessionID, now: Date) {
        turnGeneration(now: now)
        guard current[id] != nil || current.count < Self.maxSeen else { return }
        current[id] = Seen(token: token, at: now)
    }

    /// Whether `id` was seen recently (with a verified token).
    func wasSeen(_ id: SessionID) -> Bool {
        current[id] != nil || previous[id] != nil
    }

    func lastSeen(_ id: SessionID) -> Date? {
        [current[id]?.at, previous[id]?.at].compactMap { $0 }.max()
    }

    /// Gives `id` a profile, or takes its profile away (nil); throws `Full` for a new one past
    /// `maxProfiles`.
    mutating func set(_ profile: NetworkProfile?, for id: SessionID) throws(Full) {
        guard let profile else {
            profiles[id] = nil
            return
        }
        guard profiles[id] != nil || profiles.count < Self.maxProfiles else { throw Full() }
        profiles[id] = profile
    }

    /// Ends every offline time that is over at `now`; answers the clients whose profile changed,
    /// with what they have now.
    mutating func endOffline(now: Date) -> [(SessionID, NetworkProfile?)] {
        var changed: [(SessionID, NetworkProfile?)] = []
        for (id, profile) in profiles {
            guard let until = profile.offlineUntil, until <= now else { continue }
            let rest = profile.afterOffline(at: now)
            profiles[id] = rest
            changed.append((id, rest))
        }
        return changed
    }

    /// When the next offline time ends.
    var nextOfflineEnd: Date? {
        profiles.values.compactMap(\.offlineUntil).min()
    }

    /// The clients seen recently and those with a profile, the last seen first.
    mutating func clients(now: Date) -> [Client] {
        turnGeneration(now: now)
        let ids = Set(current.keys).union(previous.keys).union(profiles.keys)
        return ids.map { Client(id: $0, lastSeen: lastSeen($0), profile: profiles[$0]) }
            .sorted { ($0.lastSeen ?? .distantPast, $1.id.description) > ($1.lastSeen ?? .distantPast, $0.id.description) }
    }

    /// Starts a new generation of the sessions seen once the current one is `seenWindow` old.
    private mutating func turnGeneration(now: Date) {
        let age = now.timeIntervalSince(generationStart)
        guard age >= Self.seenWindow else { return }
        previous = age >= 2 * Self.seenWindow ? [:] : current
        current = [:]
        generationStart = now
    }
}

import Dispatch
import Foundation
import PulldownFeed
import PulldownHTTP
import Synchronization

/// The network profiles while the server runs, in memory (a restart forgets them; instances on
/// one PostgreSQL database each keep their own). It carries out `ClientProfiles`: finds the
/// profile of each request's session (`ProfileThrottle` applies it), changes profiles for the
/// API, ends offline times on a timer, drops event streams, and tells `changed` of every
/// change, as the JSON of the client (`/api/demo` pushes it as a `demo` event).
final class NetworkProfiles: Sendable {
    private let state: Mutex<ClientProfiles>
    private let tokens: SessionTokens
    private let clock: any FeedClock
    private let changed: @Sendable ([UInt8]) -> Void
    /// The open event streams of each session, to drop when it goes offline; swept of the
    /// sessions whose streams all ended once there are `sweepAt` of them.
    private let streams = Mutex<(open: [SessionID: [WeakStream]], sweepAt: Int)>(([:], 2 * ClientProfiles.maxSeen))
    /// When the offline timer rings next; nil when none is set.
    private let alarm = Mutex<Date?>(nil)
    private let timers = DispatchQueue(label: "pulldown.profiles")

    private struct WeakStream: Sendable {
        weak var stream: ResponseStream?
        var isOpen: Bool { stream.map { !$0.isClosed } ?? false }
    }

    init(tokens: SessionTokens, clock: any FeedClock, changed: @escaping @Sendable ([UInt8]) -> Void) {
        self.tokens = tokens
        self.clock = clock
        self.changed = changed
        state = Mutex(ClientProfiles(now: clock.now()))
    }

    var now: Date { clock.now() }

    // MARK: Requests

    /// The session of `request` (a token verified once, then remembered) and the profile that
    /// applies to it: none on the demo's own paths, which stay fast so that a profile can always
    /// be taken off. Records the session as seen. Nil when the request presents no session,
    /// or one that is not verified.
    func session(of request: HTTPRequest) -> (id: SessionID, profile: NetworkProfile?)? {
        guard let token = Self.presentedToken(request), let id = SessionTokens.claimedID(token) else { return nil }
        let now = clock.now()
        var profile: NetworkProfile?
        switch state.withLock({ $0.arrived(token: token, id: id, now: now) }) {
        case .known(let found):
            profile = found
        case .unknown(let found, let canRecord):
            // A MAC only when something depends on it: a profile to apply or room to record.
            guard found != nil || canRecord, tokens.verify(token) == id else { return nil }
            if canRecord { state.withLock { $0.record(token: token, id: id, now: now) } }
            profile = found
        }
        return (id, profile.flatMap { Self.isExempt(request.path) ? nil : $0 })
    }

    /// Records a session the server resolved itself (one it may just have issued).
    func saw(token: String, id: SessionID) {
        let now = clock.now()
        state.withLock { $0.record(token: token, id: id, now: now) }
    }

    /// An event stream answered to `id`: closed when the client goes offline, and after the
    /// profile's `dropStreamsEvery` seconds (EventSource reconnects with Last-Event-ID).
    func opened(_ stream: ResponseStream, by id: SessionID, profile: NetworkProfile?) {
        streams.withLock { streams in
            streams.open[id] = streams.open[id, default: []].filter(\.isOpen) + [WeakStream(stream: stream)]
            // Sessions that left keep an entry until the next sweep: a bound, not a leak, and
            // sweeps grow apart as the sessions with streams grow in number.
            if streams.open.count >= streams.sweepAt {
                streams.open = streams.open.filter { $0.value.contains(where: \.isOpen) }
                streams.sweepAt = max(2 * ClientProfiles.maxSeen, 2 * streams.open.count)
            }
        }
        guard let every = profile?.dropStreamsEvery, every > 0 else { return }
        timers.asyncAfter(deadline: .now() + every) { [weak stream] in stream?.close() }
    }

    /// The session token a request presents: `X-Session-Id`, else the session cookie.
    static func presentedToken(_ request: HTTPRequest) -> String? {
        if let header = request.headers[SessionResolver.headerName] { return header }
        guard request.headers.contains("Cookie") else { return nil }
        return request.cookie(SessionResolver.cookieName).first
    }

    /// The demo API, the Demo panel's files and the trust page: never slowed, never offline, so
    /// a profile can always be taken off and a phone can always be set up.
    static func isExempt(_ path: String) -> Bool {
        ["/api/demo", "/demo", "/trust"].contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    // MARK: The API

    /// The client a path names: its id (32 hex digits) when seen recently or given a profile,
    /// or its session token (64), verified.
    func client(named text: String) throws(Problem) -> SessionID {
        if let id = SessionID(hex: text) {
            guard state.withLock({ $0.wasSeen(id) || $0.profiles[id] != nil }) else {
                throw Problem.notFound("No client \(text) was seen recently; see GET /api/demo/clients.")
            }
            return id
        }
        if SessionTokens.claimedID(text) != nil {
            guard let id = tokens.verify(text) else { throw Problem.notFound("No session has this token.") }
            return id
        }
        throw Problem.badRequest("The client is named neither by its id nor by its session token.",
                                 invalidParams: [.init(name: "client", reason: "must be 32 or 64 lowercase hex digits")])
    }

    func client(_ id: SessionID) -> ClientProfiles.Client {
        state.withLock { ClientProfiles.Client(id: id, lastSeen: $0.lastSeen(id), profile: $0.profiles[id]) }
    }

    func clients() -> [ClientProfiles.Client] {
        let now = clock.now()
        return state.withLock { $0.clients(now: now) }
    }

    /// Gives `id` a profile (a profile that changes nothing takes it away); answers the client
    /// as it is now. A 409 when `maxProfiles` other clients have one.
    func set(_ profile: NetworkProfile?, for id: SessionID) throws(Problem) -> ClientProfiles.Client {
        let now = clock.now()
        let profile = profile.flatMap { $0.isNone(at: now) ? nil : $0 }
        let client = try state.withLock { state throws(Problem) in
            do {
                try state.set(profile, for: id)
            } catch {
                throw Problem(status: 409, title: "Conflict",
                              detail: "\(ClientProfiles.maxProfiles) clients have a profile already; take one off first.")
            }
            let client = ClientProfiles.Client(id: id, lastSeen: state.lastSeen(id), profile: profile)
            // Told under the lock, so that the events go out in the order of the changes.
            changed(Self.json(client))
            return client
        }
        if let profile, profile.isOffline(at: now) {
            dropStreams(of: id)
            if let until = profile.offlineUntil { wake(at: until) }
        }
        return client
    }

    static func json(_ client: ClientProfiles.Client) -> [UInt8] {
        var json = JSONWriter(capacity: 320)
        write(client, to: &json)
        return json.bytes
    }

    static func write(_ client: ClientProfiles.Client, to json: inout JSONWriter) {
        json.beginObject()
        json.key("client"); json.string(client.id.description)
        json.key("lastSeen")
        if let seen = client.lastSeen { json.string(Timestamp.iso8601(seen)) } else { json.null() }
        json.key("profile")
        if let profile = client.profile { profile.write(to: &json) } else { json.null() }
        json.endObject()
    }

    // MARK: Offline times

    private func dropStreams(of id: SessionID) {
        let open = streams.withLock { $0.open.removeValue(forKey: id) ?? [] }
        for weak in open { weak.stream?.close() }
    }

    /// Sets the timer for `end`, unless it rings before then already.
    private func wake(at end: Date) {
        let set = alarm.withLock { alarm in
            if let alarm, alarm <= end { return false }
            alarm = end
            return true
        }
        guard set else { return }
        let seconds = max(0, end.timeIntervalSince(clock.now()))
        timers.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.ring(for: end) }
    }

    /// Ends the offline times that are over, tells of each, and sets the timer for the next.
    private func ring(for end: Date) {
        alarm.withLock { if $0 == end { $0 = nil } }
        let now = clock.now()
        let next = state.withLock { state in
            for (id, profile) in state.endOffline(now: now) {
                changed(Self.json(ClientProfiles.Client(id: id, lastSeen: state.lastSeen(id), profile: profile)))
            }
            return state.nextOfflineEnd
        }
        if let next { wake(at: next) }
    }
}

import Foundation
import Hashing

/// Every client the doctor keeps, bounded: at most `maxClients` (the one seen longest ago goes
/// when another comes), each with its last `maxRequests` requests, its findings (one per rule at
/// most) and its `Examination`. A value: its owner keeps it behind a lock and feeds it requests.
public struct ClientBook: Sendable {
    public static let maxClients = 64
    public static let maxRequests = 200

    /// A request in a client's timeline, and the rule it broke, if any.
    public struct Entry: Sendable {
        public let request: ObservedRequest
        public let rule: (any Rule.Type)?
    }

    /// One client as kept.
    public struct Client: Sendable {
        public internal(set) var caller: Caller
        public let firstSeen: Date
        public internal(set) var lastSeen: Date
        /// Requests seen in all, beyond the timeline's.
        public internal(set) var requests = 0
        public internal(set) var timeline = Ring<Entry>(capacity: ClientBook.maxRequests)
        /// In the order first found.
        public internal(set) var findings: [Finding] = []
        var examination = Examination()
        /// Orders clients by when they were last seen, without reading the clock.
        var recency: UInt64
    }

    /// What one request brought.
    public struct Recorded: Sendable {
        /// The client as it is now, when the request broke a rule (else nil: no copy of it is made).
        public let client: Client?
        /// The finding the request added to or started, if it broke a rule.
        public let finding: Finding?
        /// The request broke this rule for the first time for this client.
        public var isNew: Bool { finding?.count == 1 }
    }

    private var clients: [Caller.Key: Client] = [:]
    private var clock: UInt64 = 0

    public init() {}

    public var count: Int { clients.count }

    /// Takes one finished request of `caller`. With a finding, `Recorded` carries a copy of the
    /// client when it is the rule's first for it, or `always`; a client breaking a rule with
    /// every request (a load test) costs no copy when nobody will look at it.
    @discardableResult
    public mutating func record(_ request: ObservedRequest, from caller: Caller, copyingClient always: Bool = true) -> Recorded {
        clock += 1
        // One look-up of the key for a client kept: its place in the table, written in place.
        let index = clients.index(forKey: caller.key) ?? admit(caller, at: request.started)
        return Self.update(&clients.values[index], with: request, caller: caller, recency: clock, copying: always)
    }

    /// A new client, in the place of the one seen longest ago when the book is full; its place.
    private mutating func admit(_ caller: Caller, at date: Date) -> Dictionary<Caller.Key, Client>.Index {
        if clients.count >= Self.maxClients, let oldest = clients.values.min(by: { $0.recency < $1.recency }) {
            clients[oldest.caller.key] = nil
        }
        clients[caller.key] = Client(caller: caller, firstSeen: date, lastSeen: date, recency: clock)
        // Just stored under that key.
        return clients.index(forKey: caller.key)!
    }

    private static func update(_ client: inout Client, with request: ObservedRequest, caller: Caller, recency: UInt64,
                               copying always: Bool) -> Recorded {
        client.caller = caller
        client.recency = recency
        client.lastSeen = max(client.lastSeen, request.ended)
        client.requests += 1
        let found = client.examination.examine(request)
        client.timeline.append(Entry(request: request, rule: found?.rule))
        guard let found else { return Recorded(client: nil, finding: nil) }
        let finding: Finding
        if let index = client.findings.firstIndex(where: { $0.rule.name == found.rule.name }) {
            client.findings[index].count += 1
            client.findings[index].lastSeen = request.ended
            client.findings[index].example = request
            client.findings[index].because = found.because
            finding = client.findings[index]
        } else {
            finding = Finding(rule: found.rule, count: 1, firstSeen: request.ended, lastSeen: request.ended,
                              example: request, because: found.because)
            client.findings.append(finding)
        }
        return Recorded(client: always || finding.count == 1 ? client : nil, finding: finding)
    }

    /// Every client, the one seen last first.
    public var clientsByRecency: [Client] {
        clients.values.sorted { $0.recency > $1.recency }
    }

    /// The client whose id is `id`.
    public func client(id: String) -> Client? {
        clients.values.first { $0.id == id }
    }

    /// 12 hex digits of the SHA-256 of `key`'s text: written only when a client is shown or looked
    /// up, never while requests are recorded (a crowd of new clients costs no hashing).
    static func id(of key: Caller.Key) -> String {
        Hex.encode(ContentHash.digest(of: Array(key.text.utf8)).prefix(6))
    }
}

extension ClientBook.Client {
    /// A short name for URLs: the same session, or address and `User-Agent`, always gets the same.
    public var id: String { ClientBook.id(of: caller.key) }
}

import Foundation

/// One rule that a client's requests broke: how often, when first and last, the latest request
/// that showed it and the earlier one that made it a mistake.
public struct Finding: Sendable {
    public let rule: any Rule.Type
    public internal(set) var count: Int
    public let firstSeen: Date
    public internal(set) var lastSeen: Date
    public internal(set) var example: ObservedRequest
    public internal(set) var because: ObservedRequest?
}

/// Who a client is: its session when it sends one, else its address and `User-Agent`.
public struct Caller: Sendable, Equatable {
    /// What groups a client's requests: the session id when one is sent, on any request, else the
    /// address and the `User-Agent`. Hashed into the client's id, never shown.
    public struct Key: Hashable, Sendable {
        public let session: String?
        public let address: String
        public let userAgent: String

        /// The key as one text (what its id is the hash of).
        var text: String { session.map { "session " + $0 } ?? "address \(address) \(userAgent)" }
    }

    public let key: Key
    /// The start of its session id, when it sent one (enough to recognise it, not to use it).
    public let session: String?
    public let address: String
    public let userAgent: String

    /// The longest `User-Agent` kept, in bytes.
    static let maxUserAgentBytes = 200

    /// `session`: the whole id it sent, if any.
    public init(session: String?, address: String, userAgent: String) {
        let userAgent = userAgent.utf8.count > Self.maxUserAgentBytes
            ? String(decoding: userAgent.utf8.prefix(Self.maxUserAgentBytes), as: UTF8.self) : userAgent
        key = session.map { Key(session: $0, address: "", userAgent: "") } ?? Key(session: nil, address: address, userAgent: userAgent)
        self.session = session.map { String(decoding: $0.utf8.prefix(8), as: UTF8.self) }
        self.address = address
        self.userAgent = userAgent
    }
}

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
    /// What groups its requests (`ClientKey`).
    public var key: String
    /// The start of its session id, when it sent one (enough to recognise it, not to use it).
    public var session: String?
    public var address: String
    public var userAgent: String

    /// The longest `User-Agent` kept, in bytes.
    public static let maxUserAgentBytes = 200

    public init(key: String, session: String?, address: String, userAgent: String) {
        self.key = key
        self.session = session
        self.address = address
        self.userAgent = userAgent.utf8.count > Self.maxUserAgentBytes
            ? String(decoding: userAgent.utf8.prefix(Self.maxUserAgentBytes), as: UTF8.self) : userAgent
    }

    /// Requests are grouped by session when one is sent, on every kind of request, else by the
    /// address and the `User-Agent`. The key is hashed into the client's id, never shown.
    public static func key(session: String?, address: String, userAgent: String) -> String {
        if let session { return "session " + session }
        return "address " + address + " " + userAgent
    }
}

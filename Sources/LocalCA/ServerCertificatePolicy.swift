import Foundation

/// Whether the server certificate kept from a previous start can serve this one, as a pure
/// decision: a certificate is issued again when a name is new (the machine joined another
/// network), when it ends within `renewalWindow`, or when it is not this authority's.
enum ServerCertificatePolicy {
    /// What the stored certificate says about itself.
    struct Stored: Equatable {
        var names: [String]
        var expiration: Date
        var isIssuedByAuthority: Bool
        var matchesKey: Bool
    }

    enum Decision: Equatable {
        case reuse
        /// Issue a new one; the reason is printed at start.
        case issue(reason: String)
    }

    /// A month's margin: a demo is never the day a certificate ends.
    static let renewalWindow: TimeInterval = 30 * 86_400

    static func decide(stored: Stored?, wanted: [String], now: Date) -> Decision {
        guard let stored else { return .issue(reason: "none yet") }
        guard stored.isIssuedByAuthority else { return .issue(reason: "the one kept was not issued by this authority") }
        guard stored.matchesKey else { return .issue(reason: "the one kept does not match its key") }
        let missing = ServerNames.normalized(wanted).filter { !Set(ServerNames.normalized(stored.names)).contains($0) }
        if !missing.isEmpty { return .issue(reason: "new name\(missing.count == 1 ? "" : "s"): \(missing.joined(separator: ", "))") }
        if stored.expiration.timeIntervalSince(now) < renewalWindow { return .issue(reason: "the one kept ends within 30 days") }
        return .reuse
    }
}

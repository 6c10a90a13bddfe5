import CLibCrypto

/// Issues and checks session tokens, so the server only accepts session ids it issued.
///
/// A token is 64 lowercase hex characters: the 16-byte id, then the first 16 bytes of
/// HMAC-SHA256(secret, id). The 32-byte secret is created once and kept in the store's meta table,
/// so tokens stay valid across restarts and every process sharing the store accepts the same tokens.
public struct SessionTokens: Sendable {
    private let secret: [UInt8]

    static let secretLength = 32
    static let macLength = 16

    public init(store: any FeedStore) throws {
        secret = try store.write { store in
            if let existing = try store.metaBytes(MetaKey.tokenSecret), existing.count == Self.secretLength {
                return existing
            }
            var rng = SystemRandomNumberGenerator()
            let fresh = (0..<Self.secretLength).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            // Insert-if-absent, then read back: of several processes starting at once, the first
            // one's secret is kept and every other reads it back. (These writes are not serialized
            // with each other, so nothing is decided on an earlier read.)
            try store.insertMetaIfAbsent(MetaKey.tokenSecret, bytes: fresh)
            if let kept = try store.metaBytes(MetaKey.tokenSecret), kept.count == Self.secretLength {
                return kept
            }
            // A damaged secret (wrong length) is replaced: tokens signed with it were unusable.
            try store.setMeta(MetaKey.tokenSecret, bytes: fresh)
            return fresh
        }
    }

    /// A new random session id and its signed token.
    public func issue() -> (id: SessionID, token: String) {
        let id = SessionID.random()
        return (id, id.hex + Hex.encode(mac(for: id)))
    }

    /// The id inside `token`, or nil if it is malformed or not signed with our secret.
    public func verify(_ token: String) -> SessionID? {
        guard token.utf8.count == 64, let bytes = Hex.decode(token) else { return nil }
        let id = SessionID(bytes: Array(bytes[0..<16]))
        let expected = mac(for: id)
        let given = Array(bytes[16..<32])
        // Constant time, so response timing does not reveal how many bytes matched.
        let same = expected.withUnsafeBytes { a in
            given.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, Self.macLength) }
        }
        return same == 0 ? id : nil
    }

    private func mac(for id: SessionID) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let message = id.bytes
        secret.withUnsafeBytes { key in
            message.withUnsafeBytes { data in
                _ = HMAC(EVP_sha256(), key.baseAddress, Int32(key.count),
                         data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                         &digest, &length)
            }
        }
        return Array(digest[0..<Self.macLength])
    }
}

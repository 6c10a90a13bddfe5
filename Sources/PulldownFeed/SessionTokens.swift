import CNettle
import Hashing

/// Issues and checks session tokens, so the server only accepts session ids it issued.
///
/// A token is 64 lowercase hex characters: the 16-byte id, then the first 16 bytes of
/// HMAC-SHA256(secret, id). The 32-byte secret is created once and kept in the store's meta table,
/// so tokens stay valid across restarts and every process sharing the store accepts the same tokens.
public struct SessionTokens: Sendable {
    /// HMAC-SHA256 keyed with the secret once; each MAC starts from a copy of it.
    private let keyed: KeyedHMAC

    static let secretLength = 32
    static let macLength = 16

    init(store: any FeedStore) throws {
        let secret = try store.write { store in
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
        keyed = KeyedHMAC(key: secret)
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
        // Constant time, so response timing does not reveal how many bytes matched.
        let same = bytes[16...].withUnsafeBytes { given in expected.withUnsafeBytes { ConstantTime.equal(given, $0) } }
        return same ? id : nil
    }

    /// The id `token` names, unchecked: to find what is kept for it without computing a MAC.
    /// `verify` before trusting it.
    public static func claimedID(_ token: String) -> SessionID? {
        guard token.utf8.count == 64 else { return nil }
        return SessionID(hexDigits: token.utf8.prefix(32))
    }

    /// The first `macLength` bytes of the id's HMAC.
    private func mac(for id: SessionID) -> ArraySlice<UInt8> {
        id.withBytes { keyed.digest(of: $0) }.prefix(Self.macLength)
    }
}

/// An HMAC-SHA256 context with its key already set. Setting a key hashes it; copying the keyed
/// struct instead costs a few hundred bytes of memcpy, and each caller gets its own copy.
struct KeyedHMAC: Sendable {
    private let context: hmac_sha256_ctx

    init(key: [UInt8]) {
        var context = hmac_sha256_ctx()
        key.withUnsafeBufferPointer { nettle_hmac_sha256_set_key(&context, $0.count, $0.baseAddress) }
        self.context = context
    }

    /// HMAC-SHA256(key, message): 32 bytes.
    func digest(of message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { digest(of: $0) }
    }

    func digest(of message: UnsafeRawBufferPointer) -> [UInt8] {
        var context = self.context
        nettle_hmac_sha256_update(&context, message.count, message.baseAddress?.assumingMemoryBound(to: UInt8.self))
        return [UInt8](unsafeUninitializedCapacity: Int(SHA256_DIGEST_SIZE)) { buffer, count in
            nettle_hmac_sha256_digest(&context, buffer.count, buffer.baseAddress)
            count = buffer.count
        }
    }
}

import CNettle

/// SHA-256 by Nettle: running over bytes as they stream by (a data file's entries), with a
/// digest that can be taken at any point without stopping it, or in one call (`digest(of:)`).
public struct ContentHash: Sendable {
    private var context = sha256_ctx()

    public init() {
        nettle_sha256_init(&context)
    }

    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        nettle_sha256_update(&context, bytes.count, bytes.baseAddress)
    }

    /// The digest of everything added so far; adding may go on.
    public func digest() -> [UInt8] {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&copy, digest.count, &digest)
        return digest
    }

    /// The digest of `bytes`.
    public static func digest<Bytes: Collection<UInt8>>(of bytes: Bytes) -> [UInt8] {
        var hash = ContentHash()
        bytes.withContiguousStorageIfAvailable { hash.add($0) } ?? Array(bytes).withUnsafeBufferPointer { hash.add($0) }
        return hash.digest()
    }
}

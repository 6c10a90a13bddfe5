import CNettle

/// A running SHA-256 over a data file's bytes as they stream by, whose digest can be taken at any
/// point (the end of each entry) without stopping it.
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
}

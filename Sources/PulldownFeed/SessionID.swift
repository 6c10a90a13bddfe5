import Hashing

/// The identity of one browser session: 128 random bits.
///
/// Only `SessionTokens` should turn client input into a trusted `SessionID`; `init?(hex:)`
/// exists for storage, tests and naming a client (the id alone, without its token, lets no one
/// act as the session), and does not prove the id was issued by this server.
public struct SessionID: Sendable, Hashable {
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A fresh id from the system's secure random source (getrandom on Linux).
    static func random() -> SessionID {
        var rng = SystemRandomNumberGenerator()
        return SessionID(high: rng.next(), low: rng.next())
    }

    /// Parses exactly 32 lowercase hex characters.
    public init?(hex: String) {
        self.init(hexDigits: hex.utf8)
    }

    /// Parses exactly 32 lowercase hex digits given as UTF-8, without allocating: a token's
    /// first half is read so on every request that carries one.
    init?(hexDigits utf8: some Collection<UInt8>) {
        guard utf8.count == 32 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in utf8.enumerated() {
            guard let value = Hex.nibble(byte) else { return nil }
            if index < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
        }
        self.init(high: high, low: low)
    }

    init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(bytes[i]) }
        self.init(high: high, low: low)
    }

    /// The 16 bytes, big-endian: what is stored and what the token signs.
    var bytes: [UInt8] {
        withBytes { Array($0) }
    }

    /// The same 16 bytes, lent without building an array: for the MAC and the SQL binding, which
    /// run on every refresh.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: (high.bigEndian, low.bigEndian), body)
    }

    /// 32 lowercase hex characters.
    var hex: String { Hex.encode(bytes) }
}

extension SessionID: CustomStringConvertible {
    public var description: String { hex }
}

/// The identity of one browser session: 128 random bits.
///
/// Only `SessionTokens` should turn client input into a `SessionID`; `init?(hex:)` exists for
/// storage and tests and does not prove the id was issued by this server.
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
    init?(hex: String) {
        guard let bytes = Hex.decode(hex), bytes.count == 16 else { return nil }
        self.init(bytes: bytes)
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

/// Lowercase hex, strict: anything but `[0-9a-f]` in even count is rejected.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var utf8 = [UInt8]()
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        // Read in place: session tokens are decoded on every request that carries one.
        return text.withUTF8(decode(utf8:))
    }

    private static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

/// Lowercase hex, strict: anything but `[0-9a-f]` in even count is rejected. How digests, ids and
/// tokens are written as text; uppercase only where a reader expects it (`uppercase`).
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        text(bytes, digits: digits, separator: nil)
    }

    /// Uppercase, with `separator` between bytes: a certificate's fingerprint as phones show it
    /// (`AB:CD:…`), a UUID's digits.
    public static func uppercase(_ bytes: some Sequence<UInt8>, separator: Character? = nil) -> String {
        text(bytes, digits: upperDigits, separator: separator?.asciiValue)
    }

    private static func text(_ bytes: some Sequence<UInt8>, digits: [UInt8], separator: UInt8?) -> String {
        var utf8 = [UInt8]()
        for byte in bytes {
            if let separator, !utf8.isEmpty { utf8.append(separator) }
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `value`'s 16 digits, most significant first, leading zeros kept.
    public static func encode(_ value: UInt64) -> String {
        withUnsafeBytes(of: value.bigEndian) { encode($0) }
    }

    public static func decode(_ text: String) -> [UInt8]? {
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

    /// The value of one hex digit, as UTF-8; nil for anything but `[0-9a-f]`.
    public static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

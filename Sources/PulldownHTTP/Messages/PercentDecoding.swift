/// Percent-decoding for request targets (RFC 3986, section 2.1).
///
/// Decoding is strict: a `%` not followed by two hex digits, or bytes that are not UTF-8,
/// make the whole value invalid, so a malformed target is refused rather than guessed at.
enum PercentDecoding {
    /// Decodes `%HH` escapes, and `+` as a space when `plusAsSpace` is set (query strings).
    /// Returns nil for a malformed escape or a result that is not valid UTF-8.
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool = false) -> String? {
        decode(bytes: Array(text.utf8), plusAsSpace: plusAsSpace)
    }

    /// The same, for bytes that are one component of a target.
    static func decode<C: Collection<UInt8>>(bytes input: C, plusAsSpace: Bool = false) -> String? {
        guard input.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            // Nothing to decode, the usual case: validated in place when the bytes are contiguous
            // (the generic path cost more than the rest of a query's parsing).
            if let text = input.withContiguousStorageIfAvailable({ String(validating: $0, as: UTF8.self) }) { return text }
            return String(validating: input, as: UTF8.self)
        }
        let input = Array(input)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < input.count,
                      let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

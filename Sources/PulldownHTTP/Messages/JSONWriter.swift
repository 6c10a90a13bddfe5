/// Writes JSON straight into bytes, in the order of the calls, without reflection.
///
/// The caller is responsible for the structure (keys inside objects, values after keys);
/// the writer takes care of commas and escaping. Used on hot paths, so it does little else.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current container needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separate(); appendQuoted(value); needsComma = true }
    public mutating func integer<I: BinaryInteger>(_ value: I) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    /// A finite number: whole values without a fraction (5, not 5.0), others as Swift prints
    /// them shortest (0.25), which JSON reads back exactly.
    public mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSON has no infinities or NaN")
        if let whole = Int64(exactly: value) { return integer(whole) }
        separate(); bytes.append(contentsOf: value.description.utf8); needsComma = true
    }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }

    /// Writes the members of `object`, the compact text of a JSON object checked when it was
    /// stored, into the object being written: stored fields go out as they came in, unparsed.
    mutating func members(of object: String) {
        var text = object.utf8[...]
        guard text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") else { return }
        text = text.dropFirst().dropLast()
        guard !text.isEmpty else { return }
        separate()
        bytes.append(contentsOf: text)
        needsComma = true
    }

    /// `members(of:)` with `prefix` written before the byte at each of `offsets` (ascending byte
    /// offsets into `object`, each inside one of its strings): a prefix that needs no escaping,
    /// such as the base of a URL.
    public mutating func members(of object: String, inserting prefix: String, at offsets: [Int]) {
        guard !offsets.isEmpty else { return members(of: object) }
        var object = object
        object.withUTF8 { text in
            guard text.count > 2, text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") else { return }
            separate()
            var from = 1
            for offset in offsets where offset >= from && offset < text.count - 1 {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[from..<offset]))
                bytes.append(contentsOf: prefix.utf8)
                from = offset
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[from..<(text.count - 1)]))
            needsComma = true
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Copies runs of plain bytes whole and escapes only what must be: item text is mostly
    /// plain, and a byte-at-a-time append was most of the cost of writing a page.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count where Self.needsEscape(utf8[index]) {
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscaped(utf8[index])
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Quotes, backslashes, control characters and DEL; and `<`, `>`, `&` so that JSON pasted
    /// into HTML can never close a script element.
    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0x3C || byte == 0x3E || byte == 0x26
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: "\\u00".utf8)
            bytes.append(hexDigit(byte >> 4))
            bytes.append(hexDigit(byte & 0x0F))
        }
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

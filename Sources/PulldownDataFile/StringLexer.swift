/// The one rule a scanner needs inside a JSON string: a backslash escapes the next byte, and an
/// unescaped quote ends the string.
struct StringLexer {
    private var escaped = false

    /// Whether `byte`, read inside a string, ends it.
    mutating func closes(_ byte: UInt8) -> Bool {
        if escaped {
            escaped = false
            return false
        }
        if byte == UInt8(ascii: "\\") {
            escaped = true
            return false
        }
        return byte == UInt8(ascii: "\"")
    }
}

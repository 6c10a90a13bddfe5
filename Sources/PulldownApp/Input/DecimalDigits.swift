/// Reads the plain decimal numbers clients send (`limit`, cursors, `_delay`, item ids,
/// `Last-Event-ID`): digits only, so `+5`, ` 5` and `5e2` are refused, which `Int64("+5")` is not.
enum DecimalDigits {
    static func parse(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}

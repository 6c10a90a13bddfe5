import InvalidInput

/// A script's durations: `"500ms"`, `"2s"`, `"1.5m"`, `"1h"` (digits, an optional fraction, a
/// unit: the document's pattern `^[0-9]+(\.[0-9]+)?(ms|s|m|h)$`), or a number of seconds.
enum ScriptDuration {
    static let reason = #"must be a duration such as "500ms", "2s", "1.5m" or "1h", or a number of seconds"#

    /// Seconds, or nil when `text` is not a duration.
    static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, scale: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.utf8.dropLast(unit.suffix.utf8.count)
        let parts = number.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        // Digits, then a point and digits or nothing: no sign, exponent, space or lone point.
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let value = Double(String(decoding: number, as: UTF8.self)) else { return nil }
        return value * unit.scale
    }

    /// The optional field `name` of `body` as seconds within `range`.
    static func read(_ body: JSONBody, _ name: String, in range: ClosedRange<Double>) -> Result<Double?, InvalidParam> {
        let refused = InvalidParam(name: name, reason: "\(reason), from \(format(range.lowerBound)) to \(format(range.upperBound))")
        if case .success(let text?) = body.string(name) {
            guard let value = seconds(text), range.contains(value) else { return .failure(refused) }
            return .success(value)
        }
        switch body.number(name, in: range) {
        case .success(let value): return .success(value)
        case .failure: return .failure(refused)
        }
    }

    /// Seconds as a script writes them.
    static func format(_ seconds: Double) -> String {
        if seconds >= 1 || seconds == 0 { return ConfigurationParser.format(seconds) + "s" }
        return ConfigurationParser.format((seconds * 1000).rounded()) + "ms"
    }
}

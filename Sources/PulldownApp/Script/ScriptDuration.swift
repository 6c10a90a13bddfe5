import InvalidInput

/// A script's durations: `"500ms"`, `"2s"`, `"1.5m"`, `"1h"`, or a bare number of seconds.
enum ScriptDuration {
    static let reason = #"must be a duration such as "500ms", "2s", "1m" or "1h", or a number of seconds"#

    /// Seconds, or nil when `text` is not a duration.
    static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, scale: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // Digits and one point only: no sign, exponent, "inf" or spaces.
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(number) else { return nil }
            return value * scale
        }
        return nil
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

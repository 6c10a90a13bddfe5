import Foundation

/// RFC 3339 date-times, with or without fractional seconds, any offset.
enum RFC3339 {
    // Made once: a formatter costs far more to make than to use, and it is safe on any thread.
    nonisolated(unsafe) private static let plain = formatter([.withInternetDateTime])
    nonisolated(unsafe) private static let fractional = formatter([.withInternetDateTime, .withFractionalSeconds])

    static func date(_ text: String) -> Date? {
        plain.date(from: text) ?? fractional.date(from: text)
    }

    private static func formatter(_ options: ISO8601DateFormatter.Options) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        return formatter
    }
}

import Foundation

/// ISO-8601 UTC timestamps with second precision (`2026-11-30T07:40:09Z`), formatted by hand
/// because a formatter object per call is slow and a shared one is not thread-safe everywhere.
enum Timestamp {
    static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}

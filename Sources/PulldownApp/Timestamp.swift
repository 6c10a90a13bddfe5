import Foundation

/// ISO-8601 UTC timestamps with second precision (`2026-11-30T07:40:09Z`), or milliseconds
/// (`2026-11-30T07:40:09.250Z`: the doctor's timelines, profile times), written digit by digit:
/// `String(format:)` cost more than the rest of a refresh answer.
enum Timestamp {
    static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let since1970 = date.timeIntervalSince1970
        var seconds = time_t(since1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var bytes = [UInt8]()
        bytes.reserveCapacity(20)
        func append(_ value: Int32, digits: Int) {
            var divisor: Int32 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        append(parts.tm_year + 1900, digits: 4); bytes.append(UInt8(ascii: "-"))
        append(parts.tm_mon + 1, digits: 2); bytes.append(UInt8(ascii: "-"))
        append(parts.tm_mday, digits: 2); bytes.append(UInt8(ascii: "T"))
        append(parts.tm_hour, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(parts.tm_min, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(parts.tm_sec, digits: 2)
        if milliseconds {
            bytes.append(UInt8(ascii: "."))
            append(Int32(min(999, ((since1970 - since1970.rounded(.down)) * 1000).rounded())), digits: 3)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

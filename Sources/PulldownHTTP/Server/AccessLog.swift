import Foundation

/// Writes one line per finished request to standard error:
/// `GET /api/items 200 1234B 0.4ms`.
///
/// Each line goes out in a single write(2) (`ErrorLog.writeLine`), so lines from different
/// threads never interleave.
enum AccessLog {
    static func write(method: String, path: String, status: Int?, bytes: Int, milliseconds: Double) {
        let statusText = status.map(String.init) ?? "-"
        ErrorLog.writeLine("\(printable(method)) \(printable(path)) \(statusText) \(bytes)B \(String(format: "%.1f", milliseconds))ms")
    }

    /// Replaces control characters so a hostile request cannot forge log lines.
    private static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}

import Foundation

/// Server-side errors the client is not told the details of, warnings, and the doctor's
/// findings, one line each on standard error (beside the access log), written in a single
/// write(2) so lines from threads never interleave. A control character a client sent cannot
/// forge a line.
public enum ErrorLog {
    public static func write(_ message: String) {
        writeLine("pulldown: " + printable(message))
    }

    /// `line` and its line break in one write(2); the access log's lines go out this way too.
    static func writeLine(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { Foundation.write(2, $0.baseAddress, $0.count) }
    }

    /// A line break as a space, any other control character as `?`.
    private static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar == "\n" ? " " : scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar
        }))
    }
}

import Foundation

/// Server-side errors the client is not told the details of, one line each on standard error
/// (beside the access log), written in a single write(2) so lines from threads never interleave.
enum ErrorLog {
    static func write(_ message: String) {
        let line = "pulldown: " + message.replacingOccurrences(of: "\n", with: " ") + "\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Foundation.write(2, $0.baseAddress, $0.count) }
    }
}

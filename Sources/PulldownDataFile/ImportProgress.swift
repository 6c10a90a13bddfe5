import Foundation

/// What a long import shows on a terminal: one line, drawn again as entries are read (of about
/// how many, from the share of the file read) and then stored, at most every `interval`
/// seconds, and one line at the end in its place. A pure value: the caller draws what it returns.
struct ImportProgress {
    /// Files this large or larger are worth a progress line.
    static let minimumBytes: Int64 = 1 << 20
    static let interval = 0.1

    let name: String
    let fileBytes: Int64
    let started: Double
    private var drawn: Double?

    init(name: String, fileBytes: Int64, started: Double) {
        self.name = name
        self.fileBytes = fileBytes
        self.started = started
    }

    /// The line after `entries` were read, the last ending at byte `offset`; nil when the
    /// last one was drawn too recently.
    mutating func read(_ entries: Int, upTo offset: Int64, now: Double) -> String? {
        guard due(now) else { return nil }
        let estimate = offset > 0 ? Self.rounded(Int64(Double(entries) * Double(fileBytes) / Double(offset))) : 0
        return "reading \(name): \(Thousands.grouped(entries)) of about \(Thousands.grouped(max(estimate, Int64(entries)))) entries"
    }

    /// The line after `stored` of `total` entries were stored; nil when too soon.
    mutating func stored(_ stored: Int, of total: Int, now: Double) -> String? {
        guard due(now) else { return nil }
        return "storing \(name): \(Thousands.grouped(stored)) of \(Thousands.grouped(total)) entries"
    }

    /// The line that ends it.
    func finished(entries: Int, now: Double) -> String {
        "imported \(Thousands.grouped(entries)) entr\(entries == 1 ? "y" : "ies") from \(name) in \(String(format: "%.1f", now - started)) s"
    }

    private mutating func due(_ now: Double) -> Bool {
        if let drawn, now - drawn < Self.interval { return false }
        drawn = now
        return true
    }

    /// Two significant digits: an estimate says no more than it knows.
    static func rounded(_ value: Int64) -> Int64 {
        var unit: Int64 = 1
        while value / unit >= 100 { unit *= 10 }
        return (value + unit / 2) / unit * unit
    }
}

/// Draws an `ImportProgress` on standard error when it is a terminal: the line is redrawn in
/// place (carriage return, erase to the end of the line) and left as the final line at the end.
final class ImportProgressLine {
    private var progress: ImportProgress
    private var entriesRead = 0
    /// Whether a line was drawn: only then is there one to end.
    private var shown = false

    /// A line for importing `path`, when standard error is a terminal and the file is large
    /// enough to take a while; nil otherwise.
    static func forImport(of path: String) -> ImportProgressLine? {
        var status = stat()
        guard isatty(STDERR_FILENO) == 1, stat(path, &status) == 0, Int64(status.st_size) >= ImportProgress.minimumBytes else {
            return nil
        }
        return ImportProgressLine(ImportProgress(name: path, fileBytes: Int64(status.st_size), started: Self.now()))
    }

    init(_ progress: ImportProgress) {
        self.progress = progress
    }

    func read(_ entries: Int, upTo offset: Int64) {
        entriesRead = entries
        progress.read(entries, upTo: offset, now: Self.now()).map(draw)
    }

    func stored(_ stored: Int, of total: Int) {
        progress.stored(stored, of: total, now: Self.now()).map(draw)
    }

    /// The last line, which stays, if a line was drawn.
    func finish() {
        guard shown else { return }
        draw(progress.finished(entries: entriesRead, now: Self.now()))
        write("\n")
    }

    /// Erases the line, for a message that follows it (the import failed).
    func clear() {
        if shown { write("\r\u{1B}[K") }
    }

    private func draw(_ line: String) {
        shown = true
        write("\r\u{1B}[Kpulldown: " + line)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func now() -> Double {
        ProcessInfo.processInfo.systemUptime
    }
}

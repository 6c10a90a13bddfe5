/// What `--watch` decides after each look at the data file, without any I/O: whether to read it,
/// and what to say on standard error, each problem once.
struct WatchState {
    /// The file's identity and change time: a different stamp means it may have changed.
    struct Stamp: Equatable {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int64 = 0
        var modified: Int64 = 0
        var modifiedNanoseconds: Int64 = 0
    }

    /// How a read of the file went.
    enum Outcome: Equatable {
        /// Entries were taken in up to the end, or up to a bad one (`problem`).
        case read(added: Int, problem: String?)
        /// The part already taken in is not what it was: an entry was edited or removed.
        case diverged
        /// The store did not answer: try again at the next look.
        case failed(String)
    }

    static let divergence = "an entry already imported was edited or removed; items never change, so the feed "
        + "stays as it is and follows no new entries until the file matches again (restart with --reset to import it anew)"

    /// The stamp the file had when it was last read through.
    private(set) var handled: Stamp?
    /// A stamp whose read found the file diverged, once: said only if it stays so, since a
    /// writer may be between emptying the file and writing it again.
    private var unsettled: Stamp?
    private var said: String?

    init(handled: Stamp?) {
        self.handled = handled
    }

    /// Whether the file, now `stamp`, needs a read.
    func needsRead(_ stamp: Stamp) -> Bool { stamp != handled }

    /// After reading the file at `stamp`: the line to say, if any.
    mutating func read(_ stamp: Stamp, _ outcome: Outcome) -> String? {
        switch outcome {
        case .read(_, let problem):
            handled = stamp
            unsettled = nil
            return say(problem)
        case .diverged:
            guard unsettled == stamp else {
                unsettled = stamp
                return nil
            }
            handled = stamp
            return say(Self.divergence)
        case .failed(let reason):
            return say(reason)
        }
    }

    /// `message` unless it was the last thing said; nil forgets it, so it is said again if it returns.
    private mutating func say(_ message: String?) -> String? {
        defer { said = message }
        return message == said ? nil : message
    }
}

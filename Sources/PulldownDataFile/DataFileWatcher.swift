import Dispatch
import Foundation
import PulldownFeed
import Synchronization

/// `--watch`: looks at the data file a few times a second and adds the entries appended to it
/// (lines of NDJSON, elements at the end of an array) as new items, told to open event streams
/// as posts are (`Feed.appendItems`). Each look that finds the file changed reads it from its
/// start: the part already taken in must hash as before (`DataSourceMark`), else nothing is
/// added and it is said once (`WatchState`).
public final class DataFileWatcher: Sendable {
    static let period = 0.25

    private let file: DataFileReference
    private var path: String { file.path }
    private let feed: Feed
    /// Where each line for the operator goes (standard error).
    private let say: @Sendable (String) -> Void
    private let state: Mutex<(mark: DataSourceMark, watch: WatchState)>
    private let timer: Mutex<RepeatingTimer?> = Mutex(nil)
    /// Where every look runs, one at a time.
    private let queue = DispatchQueue(label: "pulldown.watch", qos: .utility)

    public init(_ file: DataFileReference, mark: DataSourceMark, feed: Feed, say: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.feed = feed
        self.say = say
        // No stamp yet: the first look reads the file, so a change made during start-up counts.
        state = Mutex((mark, WatchState(handled: nil)))
        let timer = RepeatingTimer(every: Self.period, on: queue) { [weak self] in
            self?.look()
        }
        self.timer.withLock { $0 = timer }
    }

    public func cancel() {
        timer.withLock { $0?.cancel() }
    }

    /// Runs `refill`, which takes the file in anew (a reset), between two looks, and follows the
    /// file from where it left the store.
    public func restart(_ refill: () throws -> DataSourceMark) throws {
        try queue.sync {
            let mark = try refill()
            state.withLock { $0 = (mark, WatchState(handled: nil)) }
        }
    }

    /// One look, on the watcher's own serial queue.
    private func look() {
        let stamp = Self.stamp(path) ?? WatchState.Stamp()
        let (mark, watch) = state.withLock { $0 }
        guard watch.needsRead(stamp) else { return }
        let (outcome, newMark) = read(after: mark)
        let message = state.withLock { current in
            if let newMark { current.mark = newMark }
            return current.watch.read(stamp, outcome)
        }
        if let message { say(message.hasPrefix(path) ? message : "\(path): \(message)") }
    }

    private func read(after mark: DataSourceMark) -> (WatchState.Outcome, DataSourceMark?) {
        let file: DataFile
        do {
            file = try DataFile(self.file, after: mark, strict: false)
            let added = try feed.appendItems(from: file, after: mark)
            let problem = file.stopped?.failure.map { failure in
                (file.describe(failure)?.description ?? "\(failure)")
                    + "; nothing from there on is added until it is fixed (the server goes on)"
            }
            return (.read(added: added, problem: problem), file.mark)
        } catch let error as DataFileError {
            return (error.diverged ? .diverged : .read(added: 0, problem: error.description), nil)
        } catch ImportError.storeHoldsOtherItems {
            return (.diverged, nil)
        } catch {
            return (.failed("--watch cannot add the new entries now: \(error)"), nil)
        }
    }

    static func stamp(_ path: String) -> WatchState.Stamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return WatchState.Stamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                                modified: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec))
    }
}

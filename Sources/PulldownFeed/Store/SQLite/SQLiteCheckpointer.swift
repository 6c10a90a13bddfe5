import CSQLite
import Dispatch
import Synchronization

/// Folds the write-ahead log into the database file on a thread of its own, never on a commit.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on that
/// writer's thread, and syncs the log and the database file to disk. Under sustained writes that
/// sync can take seconds (the kernel flushing dirty pages), and every write waiting behind it waits
/// too. Here commits only report how long the log has grown (SQLite's WAL hook); past
/// `thresholdPages` a PASSIVE checkpoint runs on a connection of its own, which waits for no
/// reader and no writer, and readers and the writer go on meanwhile.
final class SQLiteCheckpointer: Sendable {
    /// SQLite's own default threshold for its automatic checkpoint.
    static let thresholdPages: Int32 = 1000

    private let path: String
    private let queue = DispatchQueue(label: "pulldown.checkpoint", qos: .utility)
    /// Opened on first use, used only on `queue`.
    private let connection = Mutex<SQLiteConnection?>(nil)
    private let scheduled = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)

    init(path: String) {
        self.path = path
    }

    /// Checkpoints run so far (for tests).
    var checkpointsRun: Int { completed.load(ordering: .relaxed) }

    /// Returns once every checkpoint scheduled so far has run (for tests: no polling).
    func waitForScheduledCheckpoints() {
        queue.sync {}
    }

    /// Takes over `writer`'s checkpoints: SQLite's automatic one is replaced by the hook.
    func watch(_ writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The log holds `pages` after a commit: schedule a checkpoint past the threshold, one at a time.
    func logGrew(to pages: Int32) {
        guard pages >= Self.thresholdPages,
              scheduled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        queue.async { [self] in
            checkpoint()
            scheduled.store(false, ordering: .relaxed)
        }
    }

    private func checkpoint() {
        connection.withLock { connection in
            if connection == nil {
                // Best effort: a failure to open now is tried again at the next threshold.
                connection = try? Self.open(path)
            }
            guard let connection else { return }
            _ = sqlite3_wal_checkpoint_v2(connection.handle, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
        completed.add(1, ordering: .relaxed)
    }

    private static func open(_ path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
        // Until it has read the file, a connection does not know the file is in WAL mode, and
        // a checkpoint on it does nothing.
        _ = try connection.withStatement("SELECT count(*) FROM sqlite_schema") { try $0.step() }
        return connection
    }
}

/// SQLite's WAL hook: runs on the committing thread, after the commit, with the log's size in pages.
private let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { context, _, _, pages in
    guard let context else { return SQLITE_OK }
    Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue().logGrew(to: pages)
    return SQLITE_OK
}

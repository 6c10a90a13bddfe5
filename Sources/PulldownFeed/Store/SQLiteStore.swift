import CSQLite
import Foundation

/// The SQLite database behind a `Feed`: one serialized write connection and a pool of readers.
///
/// The file is kept in WAL mode so readers never wait for the writer. `synchronous=NORMAL` in WAL
/// mode syncs at checkpoints, not at every commit: a committed (acknowledged) write survives the
/// process being killed (SIGKILL, crash), because the WAL is in the OS page cache, but the last
/// commits may be lost if the machine loses power. That is the right trade for a demo feed.
///
/// `":memory:"` gives a throwaway database on a single connection (reads then share the write
/// lock), so it behaves the same from every thread.
public final class SQLiteStore: FeedStore {
    /// The path as given.
    public let path: String
    let isMemory: Bool
    private let writer: Locked<SQLiteConnection>
    private let readers: Locked<[SQLiteConnection]>
    /// Idle readers kept open; more may exist briefly under load and are closed when returned.
    private let maxIdleReaders: Int

    /// How long a connection waits for another process's lock before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens (creating if needed) and checks the database at `path`; `":memory:"` is a throwaway.
    ///
    /// Fails with the path and SQLite's reason when the folder is missing or read-only, the file is
    /// not a database or is corrupt, or its schema is newer than this program.
    public init(path: String) throws(StoreError) {
        self.path = path
        self.isMemory = path == ":memory:" || path.isEmpty
        self.maxIdleReaders = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        do {
            try Self.prepareWriter(connection, isMemory: isMemory)
        } catch let error as StoreError {
            throw StoreError(path: path, reason: error.reason, code: error.code, duringOpen: true)
        } catch {
            throw StoreError(path: path, reason: "\(error)", duringOpen: true)
        }
        self.writer = Locked(connection)
        self.readers = Locked([])
    }

    private static func prepareWriter(_ connection: SQLiteConnection, isMemory: Bool) throws {
        sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds)
        // The first read of the file: a missing folder, or a file that is not a database, fails here.
        _ = try connection.withStatement("SELECT count(*) FROM sqlite_schema") { try $0.step() }
        if sqlite3_db_readonly(connection.handle, "main") == 1 {
            throw StoreError(path: connection.path, reason: "attempt to write a readonly database",
                             code: SQLITE_READONLY, duringOpen: true)
        }
        if !isMemory {
            // Corruption found now is a clear failure at start, rather than a feed that looks empty;
            // checked before anything is written, so a damaged file is left exactly as it was.
            let verdict = try connection.withStatement("PRAGMA quick_check(1)") { statement in
                try statement.step() ? statement.string(0) : "no answer"
            }
            guard verdict == "ok" else {
                // quick_check reports one problem per line; the start-up message stays one line.
                let problems = verdict.split(whereSeparator: \.isNewline).joined(separator: " ")
                throw StoreError(path: connection.path, reason: "database is corrupt: \(problems)",
                                 code: SQLITE_CORRUPT, duringOpen: true)
            }
        }
        if !isMemory {
            let mode = try switchToWAL(connection)
            guard mode.lowercased() == "wal" else {
                throw StoreError(path: connection.path, reason: "cannot switch to WAL journal mode (got \(mode))",
                                 duringOpen: true)
            }
            try connection.execute("PRAGMA synchronous = NORMAL")
            // A million-row seed grows the WAL to ~160 MB; give the disk back after checkpoints.
            try connection.execute("PRAGMA journal_size_limit = 33554432")
        }
        try Schema.migrate(connection)
    }

    /// Puts the file in WAL mode (a setting stored in the file, so usually already done) and
    /// returns the mode SQLite reports.
    ///
    /// The switch reads the header, then upgrades to a write lock; when another process starting
    /// on the same new file holds that lock, SQLite answers SQLITE_BUSY at once instead of
    /// calling the busy handler (waiting could deadlock two upgraders). So the switch itself is
    /// retried here, for as long as the busy timeout would have waited.
    private static func switchToWAL(_ connection: SQLiteConnection) throws -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        while true {
            do {
                return try connection.withStatement("PRAGMA journal_mode = WAL") { statement in
                    try statement.step() ? statement.string(0) : ""
                }
            } catch let error as StoreError where error.code & 0xff == SQLITE_BUSY && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Runs `body` in a write transaction, holding this process's write lock.
    func withWriter<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try writer.withLock { connection in
            try connection.transaction { try body(connection) }
        }
    }

    /// Copies the WAL into the database file and truncates it; best effort (readers may hold it).
    public func compact() {
        guard !isMemory else { return }
        writer.withLock { connection in
            _ = sqlite3_wal_checkpoint_v2(connection.handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        }
    }

    /// Runs `body` on a read connection. Single statements need no transaction; callers that read
    /// twice and need one snapshot wrap themselves in `BEGIN … COMMIT`.
    func withReader<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        if isMemory {
            return try writer.withLock { try body($0) }
        }
        let connection = try checkOutReader()
        defer { checkIn(connection) }
        return try body(connection)
    }

    // MARK: FeedStore

    public func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
        try withReader { try body($0) }
    }

    public func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R {
        try withWriter { try body($0) }
    }

    /// Nothing to observe: one process owns the file. (Other processes on the same file still
    /// read correct data; only their in-memory caches would lag.)
    public func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}

    private func checkOutReader() throws(StoreError) -> SQLiteConnection {
        if let idle = readers.withLock({ $0.popLast() }) { return idle }
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
        sqlite3_busy_timeout(connection.handle, Self.busyTimeoutMilliseconds)
        // Readers must never write, even by mistake.
        try connection.execute("PRAGMA query_only = 1")
        return connection
    }

    private func checkIn(_ connection: SQLiteConnection) {
        // A connection left inside a transaction by a failed read would pin an old snapshot.
        if sqlite3_get_autocommit(connection.handle) == 0 {
            _ = sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
        }
        let surplus: SQLiteConnection? = readers.withLock { idle in
            guard idle.count < maxIdleReaders else { return connection }
            idle.append(connection)
            return nil
        }
        // Closed outside the lock (deinit), so a slow close never blocks other readers.
        _ = surplus
    }
}

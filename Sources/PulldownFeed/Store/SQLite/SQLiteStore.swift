import CSQLite
import Foundation
import Synchronization

/// The SQLite database behind a `Feed`: one serialized write connection and a pool of readers.
///
/// The file is kept in WAL mode so readers never wait for the writer. `synchronous=NORMAL` in WAL
/// mode syncs at checkpoints, not at every commit: a committed (acknowledged) write survives the
/// process being killed (SIGKILL, crash), because the WAL is in the OS page cache, but the last
/// commits may be lost if the machine loses power. That is the right trade for a demo feed.
///
/// `":memory:"` gives a throwaway database on a single connection (reads then share the write
/// lock), so it behaves the same from every thread.
final class SQLiteStore: FeedStore {
    /// The path as given.
    let path: String
    let isMemory: Bool
    private let writer: Mutex<SQLiteConnection>
    private let readers = Mutex<[SQLiteConnection]>([])
    /// Idle readers kept open; more may exist briefly under load and are closed when returned.
    private let maxIdleReaders: Int
    /// Checkpoints off the commit path; nil for a database in memory, which has no log.
    let checkpointer: SQLiteCheckpointer?

    /// How long a connection waits for another process's lock before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens (creating if needed) and checks the database at `path`; `":memory:"` is a throwaway.
    ///
    /// Fails with `StoreError.cannotOpen` (the path and SQLite's reason) when the folder is
    /// missing or read-only, the file is not a database or is corrupt, and with
    /// `StoreError.schemaTooNew` when its layout is newer than this program.
    init(path: String) throws(StoreError) {
        self.path = path
        self.isMemory = path == ":memory:" || path.isEmpty
        self.maxIdleReaders = max(2, ProcessInfo.processInfo.activeProcessorCount)
        do {
            let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try Self.prepareWriter(connection, isMemory: isMemory)
            self.checkpointer = isMemory ? nil : SQLiteCheckpointer(path: path)
            checkpointer?.watch(connection)
            self.writer = Mutex(connection)
        } catch {
            throw StoreError.opening(error, at: path)
        }
    }

    private static func prepareWriter(_ connection: SQLiteConnection, isMemory: Bool) throws {
        sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds)
        // The first read of the file: a missing folder, or a file that is not a database, fails here.
        _ = try connection.withStatement("SELECT count(*) FROM sqlite_schema") { try $0.step() }
        if sqlite3_db_readonly(connection.handle, "main") == 1 {
            throw StoreError.cannotOpen(location: connection.path, reason: "attempt to write a readonly database")
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
                throw StoreError.cannotOpen(location: connection.path, reason: "database is corrupt: \(problems)")
            }
        }
        if !isMemory {
            let mode = try switchToWAL(connection)
            guard mode.lowercased() == "wal" else {
                throw StoreError.cannotOpen(location: connection.path,
                                            reason: "cannot switch to WAL journal mode (got \(mode))")
            }
            try connection.execute("PRAGMA synchronous = NORMAL")
            // A million-row seed grows the WAL to ~160 MB; give the disk back after checkpoints.
            try connection.execute("PRAGMA journal_size_limit = 33554432")
        }
        try SQLiteSchema.migrate(connection)
    }

    /// Puts the file in WAL mode (a setting stored in the file, so usually already done) and
    /// returns the mode SQLite reports.
    ///
    /// The switch reads the header, then upgrades to a write lock; when another process starting
    /// on the same new file holds that lock, SQLite answers SQLITE_BUSY at once instead of
    /// calling the busy handler (waiting could deadlock two upgraders). So the switch itself is
    /// retried here every 5 ms, as many times as fit in the busy timeout: counted rather than
    /// timed, so the feed's `FeedClock` stays the one clock this module reads (Dispatch only
    /// schedules).
    private static func switchToWAL(_ connection: SQLiteConnection) throws -> String {
        let pause = 5
        var retries = Int(busyTimeoutMilliseconds) / pause
        while true {
            do {
                return try connection.withStatement("PRAGMA journal_mode = WAL") { statement in
                    try statement.step() ? statement.string(0) : ""
                }
            } catch let error as SQLiteError where error.code & 0xff == SQLITE_BUSY && retries > 0 {
                retries -= 1
                Thread.sleep(forTimeInterval: Double(pause) / 1000)
            }
        }
    }

    /// Runs `body` in a write transaction, holding this process's write lock.
    func withWriter<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try reportingFailures {
            try holdingWriter { connection in
                try connection.transaction { try body(connection) }
            }
        }
    }

    /// Runs `body` on a read connection. Single statements need no transaction; callers that read
    /// twice and need one snapshot wrap themselves in `BEGIN … COMMIT`.
    func withReader<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try reportingFailures {
            if isMemory {
                return try holdingWriter(body)
            }
            let connection = try checkOutReader()
            defer { checkIn(connection) }
            return try body(connection)
        }
    }

    /// Runs `body` on the write connection, holding its lock.
    private func holdingWriter<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        // The result leaves through a local, not as `withLock`'s result: that must be provably
        // unshared (`sending`), which a generic result of the caller's closure cannot be.
        var result: Result<R, any Error>?
        writer.withLock { connection in result = Result { try body(connection) } }
        return try result!.get()
    }

    /// Runs `body`, turning SQLite's own failures into the `StoreError` every store reports.
    private func reportingFailures<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StoreError(error, at: path)
        }
    }

    // MARK: FeedStore

    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
        try withReader { try body(SQLiteTransaction(connection: $0)) }
    }

    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R {
        try withWriter { try body(SQLiteTransaction(connection: $0)) }
    }

    /// Copies the WAL into the database file and truncates it; best effort (readers may hold it).
    func compact() {
        guard !isMemory else { return }
        writer.withLock { connection in
            _ = sqlite3_wal_checkpoint_v2(connection.handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        }
    }

    /// Nothing to observe: one process owns the file. (Other processes on the same file still
    /// read correct data; only their in-memory caches would lag.)
    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}

    // MARK: Read pool

    private func checkOutReader() throws(SQLiteError) -> SQLiteConnection {
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

import CSQLite
import Foundation

/// One SQLite connection and its cache of prepared statements.
///
/// Not thread-safe by itself: it is opened with SQLITE_OPEN_NOMUTEX and `SQLiteStore` hands it to
/// one thread at a time (the write lock, or the read pool).
final class SQLiteConnection: @unchecked Sendable {
    // @unchecked: the compiler cannot see that the store lends a connection to one thread at a
    // time; that is what lets it sit in the store's `Mutex`es and move between threads.
    let handle: OpaquePointer
    /// The path as the caller gave it, for messages.
    let path: String
    private var statements: [StatementKey: OpaquePointer] = [:]

    init(path: String, flags: Int32) throws(SQLiteError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            var reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            // SQLite says only "unable to open database file"; say why (a read-only folder, a
            // missing one, a path under /proc).
            if rc & 0xff == SQLITE_CANTOPEN, let why = Self.whyNotOpened(path, systemError: db.map(sqlite3_system_errno) ?? 0) {
                reason += " (\(why))"
            }
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: reason)
        }
        // Extended codes tell "read-only database" apart from other failures.
        sqlite3_extended_result_codes(db, 1)
        self.handle = db
        self.path = path
    }

    /// Why a file cannot be opened for writing, from the file system's point of view.
    static func whyNotOpened(_ path: String, systemError: Int32) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return "it is a folder" }
            if access(path, R_OK | W_OK) != 0 { return "the file cannot be written: \(String(cString: strerror(errno)))" }
        } else {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            let shown = folder.isEmpty ? "/" : folder
            if stat(shown, &info) != 0 {
                return errno == ENOENT ? "folder \(shown) does not exist"
                    : "folder \(shown) cannot be reached: \(String(cString: strerror(errno)))"
            }
            if info.st_mode & S_IFMT != S_IFDIR { return "\(shown) is not a folder" }
            if access(shown, W_OK) != 0 { return "folder \(shown) is read-only: \(String(cString: strerror(errno)))" }
        }
        return systemError != 0 ? String(cString: strerror(systemError)) : nil
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The failure `rc` with SQLite's message for it.
    func error(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return nothing worth reading (DDL, PRAGMAs): parsed on
    /// every call, so not for what runs per request (`transaction` prepares its BEGIN and COMMIT).
    func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    /// Runs `body` with a cached prepared statement, and resets it afterwards whatever happens.
    func withStatement<R>(_ sql: String, _ body: (SQLiteStatement) throws -> R) throws -> R {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        return try body(SQLiteStatement(handle: statement, connection: self))
    }

    /// Runs a cached statement for its effect alone (BEGIN, COMMIT): prepared once, unlike `execute`.
    func run(_ sql: String) throws {
        try withStatement(sql) { statement -> Void in try statement.step() }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let cached = statements[StatementKey(sql: sql)] { return cached }
        var statement: OpaquePointer?
        // PERSISTENT: these statements live as long as the connection.
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        statements[StatementKey(sql: sql)] = statement
        return statement
    }

    var changes: Int { Int(sqlite3_changes64(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if anything throws.
    ///
    /// IMMEDIATE takes the write lock up front, so another process holding it makes us wait
    /// (busy_timeout) instead of failing halfway through. BEGIN and COMMIT are prepared once:
    /// every refresh batch is a transaction, and parsing them each time showed in perf.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            // ROLLBACK fails only when SQLite already rolled back by itself; nothing more to do then.
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }
}

/// SQL text as the key of the statement cache. Hashing a whole statement, a hundred bytes or
/// more, cost more than the rest of the look-up; a connection's few dozen statements are told
/// apart by their length and last eight bytes, and equality still compares the whole text.
private struct StatementKey: Hashable {
    let sql: String

    func hash(into hasher: inout Hasher) {
        let tail = sql.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        hasher.combine(sql.utf8.count)
        hasher.combine(tail)
    }
}

import CSQLite
import Foundation

/// One SQLite connection and its cache of prepared statements.
///
/// Not thread-safe by itself: it is opened with SQLITE_OPEN_NOMUTEX and `SQLiteStore` hands it to
/// one thread at a time (the write lock, or the read pool).
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The path as the caller gave it, for error messages.
    let path: String
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, flags: Int32) throws(StoreError) {
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
            throw StoreError(path: path, reason: reason, code: rc, duringOpen: true)
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
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
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

    func error(_ rc: Int32, duringOpen: Bool = false) -> StoreError {
        StoreError(path: path, reason: String(cString: sqlite3_errmsg(handle)), code: rc, duringOpen: duringOpen)
    }

    /// Runs one or more statements that return nothing worth reading (DDL, BEGIN, COMMIT).
    func execute(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    /// Runs `body` with a cached prepared statement, and resets it afterwards whatever happens.
    func withStatement<R>(_ sql: String, _ body: (Statement) throws -> R) throws -> R {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        return try body(Statement(handle: statement, connection: self))
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        // PERSISTENT: these statements live as long as the connection.
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        statements[sql] = statement
        return statement
    }

    var changes: Int { Int(sqlite3_changes64(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if anything throws.
    ///
    /// IMMEDIATE takes the write lock up front, so another process holding it makes us wait
    /// (busy_timeout) instead of failing halfway through.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // ROLLBACK fails only when SQLite already rolled back by itself; nothing more to do then.
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }
}

/// A prepared statement borrowed from a connection for the length of one `withStatement` call.
struct Statement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    // SQLITE_TRANSIENT: SQLite copies the bytes before the bind call returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    func bind(_ index: Int32, _ value: Int64?) throws(StoreError) {
        let rc = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(rc)
    }

    func bind(_ index: Int32, _ value: Int) throws(StoreError) {
        try bind(index, Int64(value))
    }

    func bind(_ index: Int32, _ value: Double?) throws(StoreError) {
        let rc = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(rc)
    }

    func bind(_ index: Int32, _ value: String) throws(StoreError) {
        // Explicit length: an embedded NUL is kept, not a terminator.
        let rc = value.withCString { text in
            sqlite3_bind_text(handle, index, text, Int32(value.utf8.count), Self.transient)
        }
        try check(rc)
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(StoreError) {
        let rc = blob.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
        try check(rc)
    }

    /// Advances to the next row; false when the statement is done.
    @discardableResult
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    private func check(_ rc: Int32) throws(StoreError) {
        guard rc == SQLITE_OK else { throw connection.error(rc) }
    }
}

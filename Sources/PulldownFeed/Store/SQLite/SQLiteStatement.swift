import CSQLite

/// A prepared statement borrowed from a connection for the length of one `withStatement` call.
struct SQLiteStatement: StoreRow {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    // SQLITE_TRANSIENT: SQLite copies the bytes before the bind call returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    func bind(_ index: Int32, _ value: Int64?) throws(SQLiteError) {
        let rc = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(rc)
    }

    func bind(_ index: Int32, _ value: Int) throws(SQLiteError) {
        try bind(index, Int64(value))
    }

    func bind(_ index: Int32, _ value: Double?) throws(SQLiteError) {
        let rc = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(rc)
    }

    func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        // Explicit length: an embedded NUL is kept, not a terminator.
        let rc = value.withCString { text in
            sqlite3_bind_text(handle, index, text, Int32(value.utf8.count), Self.transient)
        }
        try check(rc)
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(SQLiteError) {
        try check(blob.withUnsafeBytes { bindBlob(index, $0) })
    }

    func bind(_ index: Int32, blob: UnsafeRawBufferPointer) throws(SQLiteError) {
        try check(bindBlob(index, blob))
    }

    private func bindBlob(_ index: Int32, _ blob: UnsafeRawBufferPointer) -> Int32 {
        sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), Self.transient)
    }

    /// Advances to the next row; false when the statement is done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
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

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw connection.error(rc) }
    }
}

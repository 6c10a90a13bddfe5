import CSQLite

/// A failure inside the SQLite code: SQLite's result code and message.
///
/// The code matters to SQLite code only (`SQLiteStore` retries the switch to WAL on SQLITE_BUSY);
/// `SQLiteStore` turns this into a `StoreError` before it reaches the feed.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code, e.g. SQLITE_READONLY_DIRECTORY; `& 0xff` gives the primary one.
    let code: Int32
    /// SQLite's message, with the reason found on disk when SQLite had none to give.
    let message: String

    var description: String { message }

    /// True when another connection held a lock for longer than the busy timeout.
    var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
}

extension StoreError {
    /// What a SQLite failure on the database at `path` means for the feed: a lock held too long
    /// by another process, or a file that cannot be reached, is the database not answering.
    init(_ error: SQLiteError, at path: String) {
        if error.isBusy || error.code & 0xff == SQLITE_CANTOPEN {
            self = .unavailable(location: path, reason: error.message)
        } else {
            self = .queryFailed(location: path, reason: error.message)
        }
    }
}

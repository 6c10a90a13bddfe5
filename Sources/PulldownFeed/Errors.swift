/// One rejected input field and why.
public struct FieldError: Sendable, Equatable {
    /// The field as the client named it: "title", "body" or "author".
    public let name: String
    /// A short human sentence, e.g. "must be 1 to 200 characters after trimming".
    public let reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// Errors caused by the caller's input.
public enum FeedError: Error, Equatable {
    /// Every bad field, in the order title, body, author.
    case invalid([FieldError])
}

/// The database could not be opened or did not answer.
public struct StoreError: Error, CustomStringConvertible {
    /// The database path as given to `SQLiteStore.init(path:)`, or the PostgreSQL URL with any
    /// password masked.
    public let path: String
    /// The database's own message (SQLite's, or libpq's), or ours when it has none.
    public let reason: String
    /// SQLite's result code (0 for PostgreSQL, and when the failure is ours, e.g. a newer schema version).
    public let code: Int32
    /// True when the failure happened while opening, false for a failed query later on.
    public let duringOpen: Bool

    init(path: String, reason: String, code: Int32 = 0, duringOpen: Bool) {
        self.path = path
        self.reason = reason
        self.code = code
        self.duringOpen = duringOpen
    }

    public var description: String {
        duringOpen
            ? "cannot open database at \(path): \(reason)"
            : "database error at \(path): \(reason)"
    }
}

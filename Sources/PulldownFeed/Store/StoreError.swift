/// Why a store failed: the database could not be opened, or did not do what was asked.
///
/// `description` is one line that names the database and the reason. It is for the operator
/// (standard error at start, the server's log later), never for clients: it says where the
/// database is.
public enum StoreError: Error, CustomStringConvertible {
    /// The database could not be opened or made ready: a missing or read-only folder, a file that
    /// is not a database or is corrupt, a server that refused the connection, a bad URL.
    case cannotOpen(location: String, reason: String)
    /// The database was laid out by a newer version of this program; using it could damage it.
    case schemaTooNew(location: String, found: Int64, supported: Int64)
    /// The database did not answer: the server is away or the connection was lost, every pooled
    /// connection stayed busy, or another process held the write lock for too long.
    case unavailable(location: String, reason: String)
    /// A statement failed on a working connection (a constraint or trigger, a full disk).
    case queryFailed(location: String, reason: String)

    /// Where the database is: a SQLite path as given, or a PostgreSQL URL with any password masked.
    var location: String {
        switch self {
        case .cannotOpen(let location, _), .schemaTooNew(let location, _, _),
             .unavailable(let location, _), .queryFailed(let location, _):
            location
        }
    }

    /// The database's own message (SQLite's or libpq's), or ours when it has none.
    var reason: String {
        switch self {
        case .cannotOpen(_, let reason), .unavailable(_, let reason), .queryFailed(_, let reason):
            reason
        case .schemaTooNew(_, let found, let supported):
            "schema version \(found) is newer than this program understands (\(supported))"
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen, .schemaTooNew: "cannot open database at \(location): \(reason)"
        case .unavailable, .queryFailed: "database error at \(location): \(reason)"
        }
    }

    /// `error`, met while a store was being opened at `location`, said as a failure to open:
    /// whatever went wrong then, the program cannot start on that database.
    static func opening(_ error: any Error, at location: String) -> StoreError {
        switch error {
        case StoreError.unavailable(let location, let reason), StoreError.queryFailed(let location, let reason):
            .cannotOpen(location: location, reason: reason)
        case let error as StoreError:
            error
        default:
            .cannotOpen(location: location, reason: "\(error)")
        }
    }
}

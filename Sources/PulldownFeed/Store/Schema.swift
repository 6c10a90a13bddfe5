import CSQLite

/// The database layout, versioned with `PRAGMA user_version`.
///
/// To change the layout, append a migration to `migrations`; its position + 1 is the version it
/// produces. Migrations already shipped are never edited.
enum Schema {
    static let migrations: [@Sendable (SQLiteConnection) throws -> Void] = [
        version1,
    ]

    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Brings the database up to `currentVersion`, one transaction per step.
    static func migrate(_ connection: SQLiteConnection) throws {
        let found = try userVersion(connection)
        guard found <= currentVersion else {
            throw StoreError(
                path: connection.path,
                reason: "schema version \(found) is newer than this program understands (\(currentVersion))",
                duringOpen: true)
        }
        var version = found
        while version < currentVersion {
            version += 1
            try connection.transaction {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                guard try userVersion(connection) == version - 1 else { return }
                try migrations[Int(version - 1)](connection)
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
    }

    static func userVersion(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.withStatement("PRAGMA user_version") { statement in
            try statement.step() ? statement.int64(0) : 0
        }
    }

    private static func version1(_ connection: SQLiteConnection) throws {
        try connection.execute("""
            -- AUTOINCREMENT: ids are never reused, even for a deleted newest row, so cursors stay valid.
            CREATE TABLE items(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                author TEXT NOT NULL,
                created_at INTEGER NOT NULL  -- Unix seconds, UTC
            );
            CREATE TABLE sessions(
                id BLOB PRIMARY KEY,          -- the 16 bytes of the SessionID
                last_updated REAL NOT NULL,   -- Unix seconds of the last successful refresh
                last_seen_id INTEGER NOT NULL,
                refresh_count INTEGER NOT NULL,
                last_active REAL NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX sessions_by_last_active ON sessions(last_active);
            -- Small facts the program keeps: the token secret, the generator's last item time.
            CREATE TABLE meta(
                key TEXT PRIMARY KEY,
                value
            ) WITHOUT ROWID;
            """)
    }
}

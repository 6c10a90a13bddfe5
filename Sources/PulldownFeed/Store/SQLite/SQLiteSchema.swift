/// The SQLite layout, versioned with `PRAGMA user_version`.
///
/// To change the layout, append a step to `migrations` (see `SchemaMigrations`).
enum SQLiteSchema {
    static let migrations = SchemaMigrations<SQLiteConnection>(
        steps: [version1],
        readVersion: userVersion,
        writeVersion: { connection, version in try connection.execute("PRAGMA user_version = \(version)") })

    /// Brings the database up to `migrations.latestVersion`, one `BEGIN IMMEDIATE` transaction per
    /// step, so several processes opening a new file at once migrate it once.
    static func migrate(_ connection: SQLiteConnection) throws {
        try migrations.migrate(connection, location: connection.path) { step in try connection.transaction(step) }
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

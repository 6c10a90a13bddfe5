/// The SQLite layout, versioned with `PRAGMA user_version`.
///
/// To change the layout, append a step to `migrations` (see `SchemaMigrations`).
enum SQLiteSchema {
    static let migrations = SchemaMigrations<SQLiteConnection>(
        steps: [version1, version2, version3, version4, version5],
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

    /// Drops the index on `last_active`. Every refresh moves a session's `last_active`, and with
    /// the index that is a second B-tree page written per refresh (about 1.4 WAL frames a refresh
    /// with it, 1 without). Its only reader is the hourly expiry, which now scans the table:
    /// a few milliseconds for 10,000 sessions, about a tenth of a second for a million.
    private static func version2(_ connection: SQLiteConnection) throws {
        try connection.execute("DROP INDEX IF EXISTS sessions_by_last_active")
    }

    /// Adds the submitter's own fields (`Item.userFields`): JSON object text, empty for none.
    /// Text rather than SQLite's JSON functions: the API writes it back as it is, never queries it.
    private static func version3(_ connection: SQLiteConnection) throws {
        try connection.execute("ALTER TABLE items ADD COLUMN user_fields TEXT NOT NULL DEFAULT ''")
    }

    /// Adds the origins of the pictures the items draw from other servers (`PictureOrigins`):
    /// the page's content policy allows exactly these. Filled from the items already stored.
    private static func version4(_ connection: SQLiteConnection) throws {
        try connection.execute("CREATE TABLE picture_origins(origin TEXT PRIMARY KEY) WITHOUT ROWID")
        let origins = try connection.withStatement("SELECT user_fields FROM items WHERE user_fields LIKE '%://%'") { statement in
            var origins = Set<String>()
            while try statement.step() { origins.formUnion(PictureOrigins.of(userFields: statement.string(0))) }
            return origins
        }
        try SQLiteTransaction(connection: connection).addPictureOrigins(origins)
    }

    /// Items that change: a version and the time of the last edit, a tombstone for a deletion
    /// (its place stays, so pages keep theirs and cursors naming it stay valid), and the change
    /// log, one row an item (its latest change), numbered from the items' own id counter
    /// (`sqlite_sequence`) so that inserts, edits and deletions share one sequence. A session
    /// keeps the sequence its last refresh reflected (0: none known).
    private static func version5(_ connection: SQLiteConnection) throws {
        try connection.execute("""
            ALTER TABLE items ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE items ADD COLUMN edited_at INTEGER;              -- Unix seconds, UTC; NULL until edited
            ALTER TABLE items ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE changes(
                sequence INTEGER PRIMARY KEY,        -- from sqlite_sequence, like the ids
                item_id INTEGER NOT NULL UNIQUE      -- updated, or deleted if the item is
            );
            ALTER TABLE sessions ADD COLUMN last_sequence INTEGER NOT NULL DEFAULT 0;
            """)
    }
}

/// The PostgreSQL layout, versioned by the `schema_version` row of `meta`.
///
/// To change the layout, append a step to `migrations` (see `SchemaMigrations`). All of it runs
/// in one transaction under the store's write lock, so several processes starting at once
/// migrate once.
enum PostgresSchema {
    static let versionKey = "schema_version"

    static let migrations = SchemaMigrations<PGConnection>(
        steps: [{ try $0.execute(version1) }, { try $0.execute(version2) }, { try $0.execute(version3) }, version4,
                { try $0.execute(version5) }],
        readVersion: version,
        writeVersion: { connection, version in
            try connection.query("""
                INSERT INTO meta(key, number) VALUES ($1::text, $2::float8)
                ON CONFLICT (key) DO UPDATE SET number = excluded.number
                """, [.text(versionKey), .int(version)])
        })

    static func migrate(_ connection: PGConnection) throws {
        try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(PostgresStore.insertLockKey))")
        do {
            try connection.execute("""
                -- Small facts the program keeps: the schema version, the token secret, the
                -- generator's last item time. A value is a number or bytes.
                CREATE TABLE IF NOT EXISTS meta(
                    key text PRIMARY KEY,
                    number double precision,
                    bytes bytea
                )
                """)
            // Every step runs inside this one transaction, which already holds the lock.
            try migrations.migrate(connection, location: connection.location) { step in try step() }
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackQuietly()
            throw error
        }
    }

    static func version(_ connection: PGConnection) throws -> Int64 {
        let result = try connection.query("SELECT number FROM meta WHERE key = $1::text", [.text(versionKey)])
        guard result.rowCount == 1, !result.isNull(0, 0) else { return 0 }
        return Int64(result.double(0, 0))
    }

    private static let version1 = """
        CREATE TABLE items(
            id bigint PRIMARY KEY,        -- from item_ids, never reused
            title text NOT NULL,
            body text NOT NULL,
            author text NOT NULL,
            created_at bigint NOT NULL    -- Unix seconds, UTC
        );
        -- The last id handed out: one row, moved in the inserting transaction (see PostgresStore).
        CREATE TABLE item_ids(
            single boolean PRIMARY KEY DEFAULT true CHECK (single),
            last_id bigint NOT NULL
        );
        INSERT INTO item_ids(last_id) VALUES (0);
        CREATE TABLE sessions(
            id bytea PRIMARY KEY,                     -- the 16 bytes of the SessionID
            last_updated double precision NOT NULL,   -- Unix seconds of the last successful refresh
            last_seen_id bigint NOT NULL,
            refresh_count bigint NOT NULL,
            last_active double precision NOT NULL
        );
        CREATE INDEX sessions_by_last_active ON sessions(last_active);
        """

    /// Adds the submitter's own fields (`Item.userFields`): JSON object text, empty for none.
    /// `text`, not `jsonb`: the API writes the text back byte for byte and never queries inside
    /// it, and `jsonb` would reorder keys and cost a conversion on every page read.
    private static let version2 = "ALTER TABLE items ADD COLUMN user_fields text NOT NULL DEFAULT ''"

    /// Adds the origins of the pictures the items draw from other servers (`PictureOrigins`):
    /// the page's content policy allows exactly these. Filled from the items already stored.
    private static func version4(_ connection: PGConnection) throws {
        try connection.execute("CREATE TABLE picture_origins(origin text PRIMARY KEY)")
        let stored = try connection.query("SELECT user_fields FROM items WHERE user_fields LIKE '%://%'")
        let origins = (0..<stored.rowCount).reduce(into: Set<String>()) { origins, row in
            origins.formUnion(PictureOrigins.of(userFields: stored.string(row, 0)))
        }
        try PGTransaction(connection: connection).addPictureOrigins(origins)
    }

    /// The demo knobs every instance on the database steers together (see `SharedDemoKnobs`):
    /// one row a knob, by its name in `GET /api/demo`, so a new knob needs no new step. Their
    /// revision is a `meta` row; its row lock serializes every change.
    private static let version3 = """
        CREATE TABLE demo_knobs(
            name text PRIMARY KEY,
            value double precision NOT NULL,        -- in force now
            start_value double precision NOT NULL   -- the start-up value, which a reset restores
        );
        INSERT INTO meta(key, number) VALUES ('\(MetaKey.demoKnobsRevision)', 0);
        """

    /// Items that change, as SQLite's version 5: a version, the time of the last edit, a
    /// tombstone for a deletion, and the change log, one row an item, numbered from `item_ids`
    /// so that inserts, edits and deletions share one sequence; a session keeps the sequence its
    /// last refresh reflected.
    private static let version5 = """
        ALTER TABLE items ADD COLUMN version bigint NOT NULL DEFAULT 1;
        ALTER TABLE items ADD COLUMN edited_at bigint;                 -- Unix seconds, UTC; NULL until edited
        ALTER TABLE items ADD COLUMN deleted smallint NOT NULL DEFAULT 0;
        CREATE TABLE changes(
            sequence bigint PRIMARY KEY,       -- from item_ids, like the ids
            item_id bigint NOT NULL UNIQUE     -- updated, or deleted if the item is
        );
        ALTER TABLE sessions ADD COLUMN last_sequence bigint NOT NULL DEFAULT 0;
        """
}

/// The PostgreSQL layout, versioned by the `schema_version` row of `meta`.
///
/// To change the layout, append a migration; its position + 1 is the version it produces.
/// Migrations already shipped are never edited. All of it runs under the store's write lock, so
/// several processes starting at once migrate once.
enum PostgresSchema {
    static let migrations: [String] = [version1]
    static var currentVersion: Int64 { Int64(migrations.count) }
    static let versionKey = "schema_version"

    static func migrate(_ connection: PGConnection) throws(StoreError) {
        try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(PostgresStore.writeLockKey))")
        do throws(StoreError) {
            try connection.execute("""
                -- Small facts the program keeps: the schema version, the token secret, the
                -- generator's last item time. A value is a number or bytes.
                CREATE TABLE IF NOT EXISTS meta(
                    key text PRIMARY KEY,
                    number double precision,
                    bytes bytea
                )
                """)
            let found = try version(connection)
            guard found <= currentVersion else {
                throw StoreError(
                    path: connection.target,
                    reason: "schema version \(found) is newer than this program understands (\(currentVersion))",
                    duringOpen: true)
            }
            var version = found
            while version < currentVersion {
                try connection.execute(migrations[Int(version)])
                version += 1
            }
            if version != found {
                try connection.query("""
                    INSERT INTO meta(key, number) VALUES ($1::text, $2::float8)
                    ON CONFLICT (key) DO UPDATE SET number = excluded.number
                    """, [.text(versionKey), .int(version)])
            }
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackQuietly()
            throw StoreError(path: error.path, reason: error.reason, code: error.code, duringOpen: true)
        }
    }

    static func version(_ connection: PGConnection) throws(StoreError) -> Int64 {
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
}

import Foundation

/// A PostgreSQL database shared by several Pulldown processes, through libpq.
///
/// Opened with a `postgres://user@host:port/dbname` (or `postgresql://`) URL; `pool_size=N` in
/// the query sets the number of pooled connections (default: the `poolSize` given).
///
/// **Writes** run in one transaction each, after `pg_advisory_xact_lock(writeLockKey)`: every
/// writer of every process sharing the database takes that one lock, so writes run one at a time
/// exactly as SQLite's `BEGIN IMMEDIATE` makes them within one file, and the feed's rules (the
/// generator's interval, a session's counters, seeding only an empty feed) hold across processes.
///
/// **Ids** come from the single row of `item_ids`, moved in the inserting transaction while it
/// holds that lock. A plain sequence is not enough: with two writers, id 8 could commit after
/// id 9, and a reader that already saw 9 (and now asks for "newer than 9") would never see 8.
/// Under the lock, the next writer cannot take an id before the previous one committed (the lock
/// is released after the commit is visible), so ids become visible strictly in order. The
/// counter also rolls back with a failed transaction, so ids have no holes, as with SQLite.
///
/// **Other processes' inserts** reach this process through LISTEN/NOTIFY (see `PGListener`): a
/// committed insert notifies `pulldown_items` with its largest id, and `Feed` moves its caches.
/// Reads always go to the database, so nothing cached can hide an item.
///
/// **Lost connections**: calls fail with `StoreError` while the server is away, and dead
/// connections are replaced on the next call. Writes commit before returning, so anything
/// acknowledged to a client is in the database.
public final class PostgresStore: FeedStore {
    /// The URL with any password masked.
    public let target: String
    let settings: PGSettings
    let pool: PGPool
    private let listener: PGListener
    /// Tells our own notifications apart from other processes'.
    let instance: String

    /// The advisory lock key every writer takes ("pulldown" in ASCII).
    static let writeLockKey: Int64 = 0x7075_6C6C_646F_776E
    static let channel = "pulldown_items"

    /// Connects, creates or upgrades the schema, and starts listening for other processes' inserts.
    ///
    /// Fails with the (password-masked) URL and libpq's reason when the server cannot be reached,
    /// the login is refused, or the schema is newer than this program.
    public init(url: String, poolSize: Int = ProcessInfo.processInfo.activeProcessorCount + 1) throws(StoreError) {
        let settings = try PGSettings(url: url, defaultPoolSize: poolSize)
        let first = try PGConnection(settings: settings, duringOpen: true)
        try PostgresSchema.migrate(first)
        self.settings = settings
        self.target = settings.target
        self.pool = PGPool(settings: settings, first: first)
        self.instance = SessionID.random().hex
        self.listener = try PGListener(settings: settings, channel: Self.channel, instance: instance)
        listener.start()
    }

    deinit {
        listener.stop()
    }

    /// Pooled connections (not counting the listener's).
    public var poolSize: Int { pool.size }

    public func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
        try pool.withConnection { try body(PGTransaction(connection: $0)) }
    }

    public func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R {
        try pool.withConnection { connection in
            // One round trip for both; the lock is held until COMMIT or ROLLBACK.
            try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(Self.writeLockKey))")
            do {
                let transaction = PGTransaction(connection: connection)
                let result = try body(transaction)
                if let newest = transaction.insertedUpTo {
                    // Delivered to listeners at commit, never for a rollback.
                    try connection.query("SELECT pg_notify($1::text, $2::text)",
                                         [.text(Self.channel), .text("\(instance):\(newest)")])
                }
                try connection.execute("COMMIT")
                return result
            } catch {
                connection.rollbackQuietly()
                throw error
            }
        }
    }

    public var isShared: Bool { true }

    public func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
        listener.add(handler)
    }

    /// Runs SQL text on a pooled connection; for tests and maintenance.
    func execute(_ sql: String) throws {
        try pool.withConnection { try $0.execute(sql) }
    }
}

/// The `FeedStore` operations on one pooled connection (inside `write`'s transaction, or not).
final class PGTransaction: FeedStoreWriting {
    let connection: PGConnection
    /// The largest id inserted in this transaction.
    private(set) var insertedUpTo: Int64?

    init(connection: PGConnection) {
        self.connection = connection
    }

    static let columns = "id, title, body, author, created_at"

    func items(before cursor: Int64, limit: Int) throws -> [Item] {
        try fetch("SELECT \(Self.columns) FROM items WHERE id < $1::bigint ORDER BY id DESC LIMIT $2::bigint",
                  cursor: cursor, limit: limit)
    }

    func newestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try fetch("SELECT \(Self.columns) FROM items WHERE id > $1::bigint ORDER BY id DESC LIMIT $2::bigint",
                  cursor: cursor, limit: limit)
    }

    func oldestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try fetch("SELECT \(Self.columns) FROM items WHERE id > $1::bigint ORDER BY id ASC LIMIT $2::bigint",
                  cursor: cursor, limit: limit)
    }

    private func fetch(_ sql: String, cursor: Int64, limit: Int) throws -> [Item] {
        let result = try connection.query(sql, [.int(cursor), .int(Int64(limit))])
        return (0..<result.rowCount).map { row in
            Item(id: result.int64(row, 0), title: result.string(row, 1), body: result.string(row, 2),
                 author: result.string(row, 3), createdAt: Date(timeIntervalSince1970: Double(result.int64(row, 4))))
        }
    }

    func maxItemID() throws -> Int64? {
        let result = try connection.query("SELECT max(id) FROM items")
        guard result.rowCount == 1, !result.isNull(0, 0) else { return nil }
        return result.int64(0, 0)
    }

    func insertItems(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64? {
        guard count > 0 else { return nil }
        // Moves the counter under its row lock; the caller's transaction already holds the write lock.
        let last = try connection.query("UPDATE item_ids SET last_id = last_id + $1::bigint RETURNING last_id",
                                         [.int(Int64(count))]).int64(0, 0)
        let first = last - Int64(count) + 1
        if count <= 16 {
            for index in 0..<count {
                let draft = make(index)
                try connection.query("""
                    INSERT INTO items(id, title, body, author, created_at)
                    VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::bigint)
                    """, [.int(first + Int64(index)), .text(draft.title), .text(draft.body), .text(draft.author),
                          .int(draft.createdAt)])
            }
        } else {
            // A seed: one COPY instead of a round trip per row.
            try connection.copyIn("COPY items(id, title, body, author, created_at) FROM STDIN", rows: count) { index, buffer in
                let draft = make(index)
                buffer += Array(String(first + Int64(index)).utf8)
                buffer.append(9)
                PGConnection.appendCopyText(draft.title, to: &buffer)
                buffer.append(9)
                PGConnection.appendCopyText(draft.body, to: &buffer)
                buffer.append(9)
                PGConnection.appendCopyText(draft.author, to: &buffer)
                buffer.append(9)
                buffer += Array(String(draft.createdAt).utf8)
                buffer.append(10)
            }
        }
        insertedUpTo = max(insertedUpTo ?? last, last)
        return last
    }

    func session(_ id: SessionID) throws -> SessionRecord? {
        let result = try connection.query(
            "SELECT last_updated, last_seen_id, refresh_count, last_active FROM sessions WHERE id = $1::bytea",
            [.bytes(id.bytes)])
        guard result.rowCount == 1 else { return nil }
        return SessionRecord(lastUpdated: result.double(0, 0), lastSeenID: result.int64(0, 1),
                             refreshCount: Int(result.int64(0, 2)), lastActive: result.double(0, 3))
    }

    func saveSession(_ id: SessionID, _ record: SessionRecord) throws {
        try connection.query("""
            INSERT INTO sessions(id, last_updated, last_seen_id, refresh_count, last_active)
            VALUES ($1::bytea, $2::float8, $3::bigint, $4::bigint, $5::float8)
            ON CONFLICT (id) DO UPDATE SET
                last_updated = excluded.last_updated, last_seen_id = excluded.last_seen_id,
                refresh_count = excluded.refresh_count, last_active = excluded.last_active
            """, [.bytes(id.bytes), .double(record.lastUpdated), .int(record.lastSeenID),
                  .int(Int64(record.refreshCount)), .double(record.lastActive)])
    }

    func deleteSessions(lastActiveBefore cutoff: Double) throws -> Int {
        try connection.query("DELETE FROM sessions WHERE last_active < $1::float8", [.double(cutoff)]).affectedRows
    }

    func metaDouble(_ key: String) throws -> Double? {
        let result = try connection.query("SELECT number FROM meta WHERE key = $1::text", [.text(key)])
        guard result.rowCount == 1, !result.isNull(0, 0) else { return nil }
        return result.double(0, 0)
    }

    func metaBytes(_ key: String) throws -> [UInt8]? {
        let result = try connection.query("SELECT bytes FROM meta WHERE key = $1::text", [.text(key)])
        guard result.rowCount == 1, !result.isNull(0, 0) else { return nil }
        return result.bytes(0, 0)
    }

    func setMeta(_ key: String, double value: Double) throws {
        try connection.query("""
            INSERT INTO meta(key, number) VALUES ($1::text, $2::float8)
            ON CONFLICT (key) DO UPDATE SET number = excluded.number, bytes = NULL
            """, [.text(key), .double(value)])
    }

    func setMeta(_ key: String, bytes value: [UInt8]) throws {
        try connection.query("""
            INSERT INTO meta(key, bytes) VALUES ($1::text, $2::bytea)
            ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes, number = NULL
            """, [.text(key), .bytes(value)])
    }

    func insertMetaIfAbsent(_ key: String, bytes value: [UInt8]) throws {
        try connection.query("INSERT INTO meta(key, bytes) VALUES ($1::text, $2::bytea) ON CONFLICT (key) DO NOTHING",
                             [.text(key), .bytes(value)])
    }
}

import Foundation

/// A PostgreSQL database shared by several Pulldown processes, through libpq.
///
/// Opened with a `postgres://user@host:port/dbname` (or `postgresql://`) URL; `pool_size=N` in
/// the query sets the number of pooled connections (default: the `poolSize` given).
///
/// **Writes** run in one transaction each. A transaction that inserts first takes
/// `pg_advisory_xact_lock(insertLockKey)`: every inserter of every process sharing the database
/// takes that one lock, so inserts run one at a time, and decisions that lead to an insert
/// (seeding only an empty feed, the generator's interval) are made again under it. A refresh
/// that only stamps its session takes a lock for that session alone (`lockSessions`), so
/// refreshes of different sessions never wait for each other or for an insert.
///
/// **Ids** come from the single row of `item_ids`, moved in the inserting transaction while it
/// holds the insert lock. A plain sequence is not enough: with two writers, id 8 could commit
/// after id 9, and a reader that already saw 9 (and now asks for "newer than 9") would never see 8.
/// Under the lock, the next inserter cannot take an id before the previous one committed (the
/// lock is released after the commit is visible), so ids become visible strictly in order. The
/// counter also rolls back with a failed transaction, so ids have no holes, as with SQLite.
///
/// **Other processes' inserts** reach this process through LISTEN/NOTIFY (see `PGListener`): a
/// committed insert notifies `pulldown_items` with its largest id, and `Feed` moves its caches.
/// Reads always go to the database, so nothing cached can hide an item. An edit or a deletion
/// notifies `pulldown_changes` with its number, and the others read the change log from there.
/// A change of the shared
/// demo knobs notifies `pulldown_demo_knobs` the same way (see `PostgresStore+DemoKnobs.swift`).
///
/// **Lost connections**: calls fail with `StoreError` while the server is away, and dead
/// connections are replaced on the next call. Writes commit before returning, so anything
/// acknowledged to a client is in the database.
final class PostgresStore: FeedStore {
    /// The URL with any password masked.
    let location: String
    let pool: PGPool
    private let listener: PGListener
    /// Tells our own notifications apart from other processes'.
    let instance: String

    /// The advisory lock every inserting transaction takes ("pulldown" in ASCII).
    static let insertLockKey: Int64 = 0x7075_6C6C_646F_776E
    /// The first key of the per-session advisory locks ("pull"); the second is from the id.
    static let sessionLockNamespace: Int32 = 0x7075_6C6C
    /// The lock every running instance holds shared, on its listening connection ("pullknob").
    static let runningLockKey: Int64 = 0x7075_6C6C_6B6E_6F62
    static let itemsChannel = "pulldown_items"
    static let demoKnobsChannel = "pulldown_demo_knobs"
    /// A reset: the feed has a new identity (`FeedID`), and the newest id it left (0: none).
    static let feedChannel = "pulldown_feed"
    /// Edits and deletions: the largest change number committed (see `Change`).
    static let changesChannel = "pulldown_changes"

    /// Connects, creates or upgrades the schema, and starts listening for other processes' inserts.
    ///
    /// Fails with `StoreError.cannotOpen` (the password-masked URL and libpq's reason) when the
    /// server cannot be reached or the login is refused, and with `StoreError.schemaTooNew` when
    /// the schema is newer than this program.
    init(url: String, poolSize: Int = ProcessInfo.processInfo.activeProcessorCount + 1) throws(StoreError) {
        let instance = SessionID.random().hex
        do {
            let settings = try PGSettings(url: url, defaultPoolSize: poolSize)
            let first = try PGConnection(settings: settings)
            try PostgresSchema.migrate(first)
            self.location = settings.location
            self.pool = PGPool(settings: settings, first: first)
            self.listener = try PGListener(settings: settings, channels: [Self.itemsChannel, Self.demoKnobsChannel, Self.feedChannel, Self.changesChannel],
                                           instance: instance)
        } catch {
            throw StoreError.opening(error, at: PGSettings.masked(url))
        }
        self.instance = instance
        listener.start()
    }

    deinit {
        listener.stop()
    }

    /// Pooled connections (not counting the listener's).
    var poolSize: Int { pool.size }

    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
        try pool.withConnection { try body(PGTransaction(connection: $0)) }
    }

    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R {
        // The locks a body needs (inserts, sessions) are taken inside it and held until COMMIT
        // or ROLLBACK; a refresh that only stamps its session waits for no insert.
        try inTransaction { connection in
            let transaction = PGTransaction(connection: connection)
            let result = try body(transaction)
            // A reset's inserts are the new feed: the others hear of the reset alone, with the
            // newest id it left.
            if transaction.didResetFeed {
                try notify(Self.feedChannel, transaction.insertedUpTo ?? 0, on: connection)
            } else if let newest = transaction.insertedUpTo {
                try notify(Self.itemsChannel, newest, on: connection)
            }
            // The others read the log from what they had applied: the number is enough.
            if let changed = transaction.changedUpTo {
                try notify(Self.changesChannel, changed, on: connection)
            }
            return result
        }
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns,
    /// rolled back when it throws.
    func inTransaction<R>(_ body: (PGConnection) throws -> R) throws -> R {
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                connection.rollbackQuietly()
                throw error
            }
        }
    }

    /// Tells the other processes' listeners `number` on `channel`; delivered at commit, never
    /// for a rollback.
    func notify(_ channel: String, _ number: Int64, on connection: PGConnection) throws {
        try connection.query("SELECT pg_notify($1::text, $2::text)", [.text(channel), .text("\(instance):\(number)")])
    }

    /// How many other instances run on the database: server processes other than our own
    /// listener's that hold the running lock (`PGListener`).
    func otherInstancesRunning(on connection: PGConnection) throws -> Int64 {
        try connection.query("""
            SELECT count(DISTINCT pid) FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND pid <> $2::int4
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND classid = ($1::bigint >> 32)::oid AND objid = ($1::bigint & 4294967295)::oid AND objsubid = 1
            """, [.int(Self.runningLockKey), .int(Int64(listener.backendPID))]).int64(0, 0)
    }

    /// Calls `handler` with the number of each other process's notification on `channel`, and
    /// with nil when some may have been missed.
    func observe(_ channel: String, _ handler: @escaping @Sendable (Int64?) -> Void) {
        listener.add(channel: channel, handler)
    }

    var isShared: Bool { true }

    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
        observe(Self.itemsChannel, handler)
    }

    func observeForeignResets(_ handler: @escaping @Sendable (Int64?) -> Void) {
        observe(Self.feedChannel, handler)
    }

    func observeForeignChanges(_ handler: @escaping @Sendable (Int64?) -> Void) {
        observe(Self.changesChannel, handler)
    }

    /// Runs SQL text on a pooled connection; for tests and maintenance.
    func execute(_ sql: String) throws {
        try pool.withConnection { try $0.execute(sql) }
    }
}

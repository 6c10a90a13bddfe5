/// The `FeedStore` operations on one SQLite connection: inside the transaction `SQLiteStore.write`
/// opened, or on a read connection for `SQLiteStore.read`.
struct SQLiteTransaction: FeedStoreWriting, KeysetItemReading {
    let connection: SQLiteConnection

    // MARK: Locks

    /// Nothing to take: SQLite writers already run one at a time (`BEGIN IMMEDIATE`).
    func lockForInserts() throws {}
    func lockSessions(_ ids: [SessionID]) throws {}

    // MARK: Items

    static let itemQueries = ItemQueries(cursor: "?1", limit: "?2")

    func fetchItems(_ sql: String, cursor: Int64, limit: Int) throws -> [Item] {
        try connection.withStatement(sql) { statement in
            try statement.bind(1, cursor)
            try statement.bind(2, limit)
            var items: [Item] = []
            items.reserveCapacity(limit)
            while try statement.step() {
                items.append(Item(row: statement))
            }
            return items
        }
    }

    func maxItemID() throws -> Int64? {
        try connection.withStatement("SELECT max(id) FROM items") { statement in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.int64(0)
        }
    }

    func itemCount() throws -> Int64 {
        try connection.withStatement("SELECT count(*) FROM items") { statement in
            try statement.step() ? statement.int64(0) : 0
        }
    }

    func insertRows(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64? {
        // AUTOINCREMENT under the write lock: consecutive ids, never reused.
        var lastID: Int64?
        for index in 0..<count {
            let draft = make(index)
            lastID = try connection.withStatement("INSERT INTO items(title, body, author, created_at, user_fields) VALUES (?1, ?2, ?3, ?4, ?5)") { statement in
                try statement.bind(1, draft.title)
                try statement.bind(2, draft.body)
                try statement.bind(3, draft.author)
                try statement.bind(4, draft.createdAt)
                try statement.bind(5, draft.userFields)
                try statement.step()
                return connection.lastInsertRowID
            }
        }
        return lastID
    }

    func resetFeed(to id: FeedID) throws {
        try connection.execute("DELETE FROM items; DELETE FROM sessions; DELETE FROM picture_origins")
        try setMeta(MetaKey.feedID, bytes: id.bytes)
    }

    // MARK: Picture origins

    func pictureOrigins() throws -> [String] {
        try connection.withStatement("SELECT origin FROM picture_origins ORDER BY origin") { statement in
            var origins: [String] = []
            while try statement.step() { origins.append(statement.string(0)) }
            return origins
        }
    }

    func addPictureOrigins(_ origins: Set<String>) throws {
        for origin in origins {
            try connection.withStatement("INSERT INTO picture_origins(origin) VALUES (?1) ON CONFLICT DO NOTHING") { statement in
                try statement.bind(1, origin)
                try statement.step()
            }
        }
    }

    // MARK: Sessions

    private static let selectSession = "SELECT \(SessionRecord.storedColumns) FROM sessions WHERE id = ?1"
    private static let upsertSession = """
        INSERT INTO sessions(id, \(SessionRecord.storedColumns))
        VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT(id) DO UPDATE SET
            last_updated = excluded.last_updated, last_seen_id = excluded.last_seen_id,
            refresh_count = excluded.refresh_count, last_active = excluded.last_active
        """

    func session(_ id: SessionID) throws -> SessionRecord? {
        try connection.withStatement(Self.selectSession) { statement in
            try id.withBytes { try statement.bind(1, blob: $0) }
            guard try statement.step() else { return nil }
            return SessionRecord(row: statement)
        }
    }

    func saveSession(_ id: SessionID, _ record: SessionRecord) throws {
        try connection.withStatement(Self.upsertSession) { statement in
            try id.withBytes { try statement.bind(1, blob: $0) }
            try statement.bind(2, record.lastUpdated)
            try statement.bind(3, record.lastSeenID)
            try statement.bind(4, record.refreshCount)
            try statement.bind(5, record.lastActive)
            try statement.step()
        }
    }

    func deleteSessions(lastActiveBefore cutoff: Double) throws -> Int {
        try connection.withStatement("DELETE FROM sessions WHERE last_active < ?1") { statement in
            try statement.bind(1, cutoff)
            try statement.step()
            return connection.changes
        }
    }

    // MARK: Meta (one untyped `value` column: a REAL or a BLOB)

    private static let selectMeta = "SELECT value FROM meta WHERE key = ?1"
    private static let upsertMeta =
        "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"

    func metaDouble(_ key: String) throws -> Double? {
        try connection.withStatement(Self.selectMeta) { statement in
            try statement.bind(1, key)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.double(0)
        }
    }

    func metaBytes(_ key: String) throws -> [UInt8]? {
        try connection.withStatement(Self.selectMeta) { statement in
            try statement.bind(1, key)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.blob(0)
        }
    }

    func setMeta(_ key: String, double value: Double) throws {
        try connection.withStatement(Self.upsertMeta) { statement in
            try statement.bind(1, key)
            try statement.bind(2, value)
            try statement.step()
        }
    }

    func setMeta(_ key: String, bytes value: [UInt8]) throws {
        try connection.withStatement(Self.upsertMeta) { statement in
            try statement.bind(1, key)
            try statement.bind(2, blob: value)
            try statement.step()
        }
    }

    func insertMetaIfAbsent(_ key: String, bytes value: [UInt8]) throws {
        try connection.withStatement("INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO NOTHING") { statement in
            try statement.bind(1, key)
            try statement.bind(2, blob: value)
            try statement.step()
        }
    }

    func deleteMeta(_ keys: [String]) throws {
        for key in keys {
            try connection.withStatement("DELETE FROM meta WHERE key = ?1") { statement in
                try statement.bind(1, key)
                try statement.step()
            }
        }
    }
}

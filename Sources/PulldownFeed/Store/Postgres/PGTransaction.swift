/// The `FeedStore` operations on one pooled connection (inside `write`'s transaction, or not).
final class PGTransaction: FeedStoreWriting, KeysetItemReading {
    let connection: PGConnection
    /// The largest id inserted in this transaction (since its reset, if it made one).
    private(set) var insertedUpTo: Int64?
    /// Whether this transaction reset the feed (`resetFeed(to:)`): the other processes hear of
    /// that instead of its inserts, which are the new feed.
    private(set) var didResetFeed = false
    /// The largest change number this transaction logged (since its reset, if it made one).
    private(set) var changedUpTo: Int64?

    /// Whether this transaction holds the insert lock.
    private var holdsInsertLock = false

    init(connection: PGConnection) {
        self.connection = connection
    }

    // MARK: Locks

    func lockForInserts() throws {
        guard !holdsInsertLock else { return }
        try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [.int(PostgresStore.insertLockKey)])
        holdsInsertLock = true
    }

    /// One advisory lock per session, in the two-key space (apart from the insert lock's one-key
    /// space): the store's namespace and the session id's first four bytes. Sessions that share
    /// those bytes merely wait for each other. Taken in ascending order in one statement, so two
    /// batches of refreshes never wait for each other in a cycle.
    func lockSessions(_ ids: [SessionID]) throws {
        let keys = Set(ids.map { id in
            Int32(bitPattern: id.bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }).sorted()
        guard !keys.isEmpty else { return }
        try connection.query(
            "SELECT count(pg_advisory_xact_lock($1::int4, k)) FROM unnest($2::int4[]) AS k",
            [.int(Int64(PostgresStore.sessionLockNamespace)), .text("{" + keys.map(String.init).joined(separator: ",") + "}")])
    }

    // MARK: Items

    static let itemQueries = ItemQueries(cursor: "$1::bigint", limit: "$2::bigint")

    func fetchPlaces(_ sql: String, cursor: Int64, limit: Int) throws -> [ItemPlace] {
        let result = try connection.query(sql, [.int(cursor), .int(Int64(limit))])
        return (0..<result.rowCount).map { ItemPlace(row: PGRow(result: result, index: $0)) }
    }

    func fetchChanges(_ sql: String, since: Int64, limit: Int) throws -> [Change] {
        let result = try connection.query(sql, [.int(since), .int(Int64(limit))])
        return (0..<result.rowCount).map { ChangeRow(row: PGRow(result: result, index: $0)).change }
    }

    /// One statement, so a shared store's check costs one round trip.
    func newestAndFeedID() throws -> (newest: Int64?, feedID: FeedID?, sequence: Int64) {
        let result = try connection.query("""
            SELECT (SELECT max(id) FROM items), (SELECT bytes FROM meta WHERE key = $1::text), (SELECT last_id FROM item_ids)
            """, [.text(MetaKey.feedID)])
        return (result.isNull(0, 0) ? nil : result.int64(0, 0), result.isNull(0, 1) ? nil : FeedID(bytes: result.bytes(0, 1)),
                result.int64(0, 2))
    }

    func maxItemID() throws -> Int64? {
        let result = try connection.query("SELECT max(id) FROM items")
        guard result.rowCount == 1, !result.isNull(0, 0) else { return nil }
        return result.int64(0, 0)
    }

    func itemCount() throws -> Int64 {
        try connection.query("SELECT count(*) FROM items WHERE deleted = 0").int64(0, 0)
    }

    func insertRows(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64? {
        guard count > 0 else { return nil }
        // Under the insert lock, an id is taken only after the previous inserter committed, so
        // ids become visible strictly in order.
        try lockForInserts()
        let last = try connection.query("UPDATE item_ids SET last_id = last_id + $1::bigint RETURNING last_id",
                                         [.int(Int64(count))]).int64(0, 0)
        let first = last - Int64(count) + 1
        if count <= 16 {
            for index in 0..<count {
                let draft = make(index)
                try connection.query("""
                    INSERT INTO items(id, title, body, author, created_at, user_fields)
                    VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::bigint, $6::text)
                    """, [.int(first + Int64(index)), .text(draft.title), .text(draft.body), .text(draft.author),
                          .int(draft.createdAt), .text(draft.userFields)])
            }
        } else {
            // A seed: one COPY instead of a round trip per row.
            try connection.copyIn("COPY items(id, title, body, author, created_at, user_fields) FROM STDIN", rows: count) { index, buffer in
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
                buffer.append(9)
                PGConnection.appendCopyText(draft.userFields, to: &buffer)
                buffer.append(10)
            }
        }
        insertedUpTo = max(insertedUpTo ?? last, last)
        return last
    }

    func resetFeed(to id: FeedID) throws {
        try connection.execute("DELETE FROM items; DELETE FROM changes; DELETE FROM sessions; DELETE FROM picture_origins")
        try setMeta(MetaKey.feedID, bytes: id.bytes)
        didResetFeed = true
        insertedUpTo = nil
        changedUpTo = nil
    }

    // MARK: Changes

    /// `item_ids`' counter: every id and every change number came from it.
    func sequence() throws -> Int64 {
        try connection.query("SELECT last_id FROM item_ids").int64(0, 0)
    }

    func changedItemIDs(since: Int64) throws -> (ids: [Int64], through: Int64?) {
        let result = try connection.query("SELECT item_id, sequence FROM changes WHERE sequence > $1::bigint", [.int(since)])
        let ids = (0..<result.rowCount).map { result.int64($0, 0) }
        let through = (0..<result.rowCount).map { result.int64($0, 1) }.max()
        return (ids, through)
    }

    func updateItem(_ id: Int64, _ draft: ItemDraft, version: Int64, editedAt: Int64) throws {
        try connection.query("""
            UPDATE items SET title = $2::text, body = $3::text, author = $4::text, user_fields = $5::text,
                version = $6::bigint, edited_at = $7::bigint
            WHERE id = $1::bigint
            """, [.int(id), .text(draft.title), .text(draft.body), .text(draft.author), .text(draft.userFields),
                  .int(version), .int(editedAt)])
    }

    func deleteItem(_ id: Int64) throws {
        try connection.query(SQLForChanges.tombstone("$1::bigint"), [.int(id)])
    }

    func logChange(of id: Int64) throws -> Int64 {
        // Under the insert lock, like an id: numbers become visible strictly in order.
        try lockForInserts()
        let number = try connection.query("UPDATE item_ids SET last_id = last_id + 1 RETURNING last_id").int64(0, 0)
        try connection.query("DELETE FROM changes WHERE item_id = $1::bigint", [.int(id)])
        try connection.query("INSERT INTO changes(sequence, item_id) VALUES ($1::bigint, $2::bigint)", [.int(number), .int(id)])
        changedUpTo = max(changedUpTo ?? number, number)
        return number
    }

    func pruneChanges(keeping kept: Int) throws -> Int64? {
        let found = try connection.query(SQLForChanges.pruneCutoff("$1::bigint"), [.int(Int64(kept))])
        guard found.rowCount == 1 else { return nil }
        let cutoff = found.int64(0, 0)
        try connection.query("DELETE FROM changes WHERE sequence <= $1::bigint", [.int(cutoff)])
        return cutoff
    }

    // MARK: Picture origins

    func pictureOrigins() throws -> [String] {
        let result = try connection.query("SELECT origin FROM picture_origins ORDER BY origin")
        return (0..<result.rowCount).map { result.string($0, 0) }
    }

    func addPictureOrigins(_ origins: Set<String>) throws {
        for origin in origins.sorted() {
            try connection.query("INSERT INTO picture_origins(origin) VALUES ($1::text) ON CONFLICT DO NOTHING", [.text(origin)])
        }
    }

    // MARK: Sessions

    private static let selectSession = SQLForSessions.select(id: "$1::bytea")
    private static let upsertSession = SQLForSessions.upsert(id: "$1::bytea",
                                                             values: ["$2::float8", "$3::bigint", "$4::bigint", "$5::float8", "$6::bigint"])

    func session(_ id: SessionID) throws -> SessionRecord? {
        let result = try connection.query(Self.selectSession, [.bytes(id.bytes)])
        guard result.rowCount == 1 else { return nil }
        return SessionRecord(row: PGRow(result: result, index: 0))
    }

    func saveSession(_ id: SessionID, _ record: SessionRecord) throws {
        try connection.query(Self.upsertSession, [.bytes(id.bytes), .double(record.lastUpdated), .int(record.lastSeenID),
                                                  .int(Int64(record.refreshCount)), .double(record.lastActive),
                                                  .int(record.lastSequence)])
    }

    func deleteSessions(lastActiveBefore cutoff: Double) throws -> Int {
        try connection.query("DELETE FROM sessions WHERE last_active < $1::float8", [.double(cutoff)]).affectedRows
    }

    // MARK: Meta (a `number` and a `bytes` column; one of them holds the value)

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

    func deleteMeta(_ keys: [String]) throws {
        try connection.query("DELETE FROM meta WHERE key = ANY($1::text[])",
                             [.text("{" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "}")])
    }
}

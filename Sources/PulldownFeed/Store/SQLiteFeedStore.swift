import Foundation

/// The `FeedStore` operations on one SQLite connection, inside the transaction its store opened.
extension SQLiteConnection: FeedStoreWriting {
    func items(before cursor: Int64, limit: Int) throws -> [Item] {
        try ItemRows.fetch(ItemRows.olderThan, cursor: cursor, limit: limit, on: self)
    }

    func newestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try ItemRows.fetch(ItemRows.newestNewerThan, cursor: cursor, limit: limit, on: self)
    }

    func oldestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try ItemRows.fetch(ItemRows.oldestNewerThan, cursor: cursor, limit: limit, on: self)
    }

    func maxItemID() throws -> Int64? {
        try ItemRows.maxID(on: self)
    }

    func insertItems(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64? {
        // AUTOINCREMENT under the write lock: consecutive ids, never reused.
        var lastID: Int64?
        for index in 0..<count {
            let draft = make(index)
            lastID = try ItemRows.insert(title: draft.title, body: draft.body, author: draft.author,
                                         createdAt: draft.createdAt, on: self)
        }
        return lastID
    }

    func session(_ id: SessionID) throws -> SessionRecord? {
        try withStatement(
            "SELECT last_updated, last_seen_id, refresh_count, last_active FROM sessions WHERE id = ?1"
        ) { statement in
            try statement.bind(1, blob: id.bytes)
            guard try statement.step() else { return nil }
            return SessionRecord(lastUpdated: statement.double(0), lastSeenID: statement.int64(1),
                                 refreshCount: Int(statement.int64(2)), lastActive: statement.double(3))
        }
    }

    func saveSession(_ id: SessionID, _ record: SessionRecord) throws {
        try withStatement("""
            INSERT INTO sessions(id, last_updated, last_seen_id, refresh_count, last_active)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(id) DO UPDATE SET
                last_updated = excluded.last_updated, last_seen_id = excluded.last_seen_id,
                refresh_count = excluded.refresh_count, last_active = excluded.last_active
            """) { statement in
            try statement.bind(1, blob: id.bytes)
            try statement.bind(2, record.lastUpdated)
            try statement.bind(3, record.lastSeenID)
            try statement.bind(4, record.refreshCount)
            try statement.bind(5, record.lastActive)
            try statement.step()
        }
    }

    func deleteSessions(lastActiveBefore cutoff: Double) throws -> Int {
        try withStatement("DELETE FROM sessions WHERE last_active < ?1") { statement in
            try statement.bind(1, cutoff)
            try statement.step()
            return changes
        }
    }

    func metaDouble(_ key: String) throws -> Double? {
        try Meta.double(key, on: self)
    }

    func metaBytes(_ key: String) throws -> [UInt8]? {
        try Meta.blob(key, on: self)
    }

    func setMeta(_ key: String, double value: Double) throws {
        try Meta.set(key, double: value, on: self)
    }

    func setMeta(_ key: String, bytes value: [UInt8]) throws {
        try Meta.set(key, blob: value, on: self)
    }

    func insertMetaIfAbsent(_ key: String, bytes value: [UInt8]) throws {
        try withStatement("INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO NOTHING") { statement in
            try statement.bind(1, key)
            try statement.bind(2, blob: value)
            try statement.step()
        }
    }
}

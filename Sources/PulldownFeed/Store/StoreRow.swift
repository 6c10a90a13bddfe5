import Foundation

/// One row of a query's result, read by column (from 0): what a SQLite statement and a
/// PostgreSQL result have in common, so that rows become `Item`s and `SessionRecord`s in one place.
protocol StoreRow {
    func int64(_ column: Int32) -> Int64
    func double(_ column: Int32) -> Double
    func string(_ column: Int32) -> String
    func isNull(_ column: Int32) -> Bool
}

extension ItemPlace {
    /// The columns `init(row:)` reads, in its order: every store selects exactly these.
    static let storedColumns = "id, title, body, author, created_at, user_fields, version, edited_at, deleted"

    /// A place from a row of `storedColumns`; times are stored as whole Unix seconds.
    init(row: some StoreRow) {
        let id = row.int64(0)
        guard row.int64(8) == 0 else {
            self.init(id: id, item: nil)
            return
        }
        self.init(id: id, item: Item(id: id, title: row.string(1), body: row.string(2), author: row.string(3),
                                     createdAt: Date(timeIntervalSince1970: Double(row.int64(4))), userFields: row.string(5),
                                     version: row.int64(6),
                                     editedAt: row.isNull(7) ? nil : Date(timeIntervalSince1970: Double(row.int64(7)))))
    }
}

extension SessionRecord {
    /// The columns `init(row:)` reads, in its order (the id is the key, not read back).
    static let storedColumns = "last_updated, last_seen_id, refresh_count, last_active, last_sequence"

    /// A session from a row of `storedColumns`.
    init(row: some StoreRow) {
        self.init(lastUpdated: row.double(0), lastSeenID: row.int64(1), refreshCount: Int(row.int64(2)),
                  lastActive: row.double(3), lastSequence: row.int64(4))
    }
}

/// The session statements both stores write alike, in a store's placeholder syntax (`?1`,
/// `$1::bytea`): the id, then the values of `SessionRecord.storedColumns` in their order.
enum SQLForSessions {
    static func select(id: String) -> String {
        "SELECT \(SessionRecord.storedColumns) FROM sessions WHERE id = \(id)"
    }

    /// Inserts the session, or updates every stored column of the one with that id.
    static func upsert(id: String, values: [String]) -> String {
        """
        INSERT INTO sessions(id, \(SessionRecord.storedColumns))
        VALUES (\(([id] + values).joined(separator: ", ")))
        ON CONFLICT (id) DO UPDATE SET
            last_updated = excluded.last_updated, last_seen_id = excluded.last_seen_id,
            refresh_count = excluded.refresh_count, last_active = excluded.last_active,
            last_sequence = excluded.last_sequence
        """
    }
}

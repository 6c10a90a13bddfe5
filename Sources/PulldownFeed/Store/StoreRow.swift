import Foundation

/// One row of a query's result, read by column (from 0): what a SQLite statement and a
/// PostgreSQL result have in common, so that rows become `Item`s and `SessionRecord`s in one place.
protocol StoreRow {
    func int64(_ column: Int32) -> Int64
    func double(_ column: Int32) -> Double
    func string(_ column: Int32) -> String
}

extension Item {
    /// The columns `init(row:)` reads, in its order: every store selects exactly these.
    static let storedColumns = "id, title, body, author, created_at, user_fields"

    /// An item from a row of `storedColumns`; `created_at` is stored as whole Unix seconds.
    init(row: some StoreRow) {
        self.init(id: row.int64(0), title: row.string(1), body: row.string(2), author: row.string(3),
                  createdAt: Date(timeIntervalSince1970: Double(row.int64(4))), userFields: row.string(5))
    }
}

extension SessionRecord {
    /// The columns `init(row:)` reads, in its order (the id is the key, not read back).
    static let storedColumns = "last_updated, last_seen_id, refresh_count, last_active"

    /// A session from a row of `storedColumns`.
    init(row: some StoreRow) {
        self.init(lastUpdated: row.double(0), lastSeenID: row.int64(1), refreshCount: Int(row.int64(2)),
                  lastActive: row.double(3))
    }
}

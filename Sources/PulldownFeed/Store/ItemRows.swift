import Foundation

/// The SQL for items, shared by reads and writes so column order is defined once.
enum ItemRows {
    static let columns = "id, title, body, author, created_at"

    static let olderThan =
        "SELECT \(columns) FROM items WHERE id < ?1 ORDER BY id DESC LIMIT ?2"
    static let newestNewerThan =
        "SELECT \(columns) FROM items WHERE id > ?1 ORDER BY id DESC LIMIT ?2"
    static let oldestNewerThan =
        "SELECT \(columns) FROM items WHERE id > ?1 ORDER BY id ASC LIMIT ?2"
    static let selectMaxID = "SELECT max(id) FROM items"
    static let insertRow = "INSERT INTO items(title, body, author, created_at) VALUES (?1, ?2, ?3, ?4)"

    /// Runs a select of `columns` with (cursor, limit) and decodes every row.
    static func fetch(_ sql: String, cursor: Int64, limit: Int, on connection: SQLiteConnection) throws -> [Item] {
        try connection.withStatement(sql) { statement in
            try statement.bind(1, cursor)
            try statement.bind(2, limit)
            var items: [Item] = []
            items.reserveCapacity(limit)
            while try statement.step() {
                items.append(Item(
                    id: statement.int64(0),
                    title: statement.string(1),
                    body: statement.string(2),
                    author: statement.string(3),
                    createdAt: Date(timeIntervalSince1970: Double(statement.int64(4)))))
            }
            return items
        }
    }

    static func maxID(on connection: SQLiteConnection) throws -> Int64? {
        try connection.withStatement(selectMaxID) { statement in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.int64(0)
        }
    }

    /// Inserts one item and returns its new id.
    static func insert(title: String, body: String, author: String, createdAt: Int64,
                       on connection: SQLiteConnection) throws -> Int64 {
        try connection.withStatement(insertRow) { statement in
            try statement.bind(1, title)
            try statement.bind(2, body)
            try statement.bind(3, author)
            try statement.bind(4, createdAt)
            try statement.step()
            return connection.lastInsertRowID
        }
    }
}

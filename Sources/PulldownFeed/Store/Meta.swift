/// Typed access to the `meta` key/value table, on a connection the caller already holds.
enum Meta {
    /// Unix seconds of the newest seeded, added or generated item; drives the demo generator.
    static let lastItemTime = "last_item_time"
    /// 32 random bytes that sign session tokens.
    static let tokenSecret = "token_secret"

    static func double(_ key: String, on connection: SQLiteConnection) throws -> Double? {
        try connection.withStatement("SELECT value FROM meta WHERE key = ?1") { statement in
            try statement.bind(1, key)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.double(0)
        }
    }

    static func blob(_ key: String, on connection: SQLiteConnection) throws -> [UInt8]? {
        try connection.withStatement("SELECT value FROM meta WHERE key = ?1") { statement in
            try statement.bind(1, key)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.blob(0)
        }
    }

    static func set(_ key: String, double value: Double, on connection: SQLiteConnection) throws {
        try connection.withStatement(upsert) { statement in
            try statement.bind(1, key)
            try statement.bind(2, value)
            try statement.step()
        }
    }

    static func set(_ key: String, blob value: [UInt8], on connection: SQLiteConnection) throws {
        try connection.withStatement(upsert) { statement in
            try statement.bind(1, key)
            try statement.bind(2, blob: value)
            try statement.step()
        }
    }

    private static let upsert =
        "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
}

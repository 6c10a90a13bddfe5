/// Opens the store a `--db` value names.
public enum FeedStores {
    /// True for `postgres://…` and `postgresql://…` URLs.
    static func isPostgresURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// A `PostgresStore` for a `postgres://` or `postgresql://` URL, else a `SQLiteStore` at the
    /// path. `connections` sizes the PostgreSQL pool (one per server thread, plus one for chores)
    /// unless the URL says `pool_size=N`.
    public static func open(_ location: String, connections: Int) throws(StoreError) -> any FeedStore {
        if isPostgresURL(location) {
            return try PostgresStore(url: location, poolSize: connections)
        }
        return try SQLiteStore(path: location)
    }
}

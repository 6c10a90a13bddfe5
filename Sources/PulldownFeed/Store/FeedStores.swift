/// Opens the feed a `--db` value names: the one way into the stores from outside this module.
public enum FeedStores {
    /// A feed, and the session tokens signed with the key its store keeps.
    public struct Opened: Sendable {
        public let feed: Feed
        public let tokens: SessionTokens
    }

    /// Opens the store at `location` (see `open(_:connections:)`), its session-signing key and a
    /// feed on it. Throws the store's error, which names the database, for the operator.
    public static func openFeed(_ location: String, connections: Int, clock: any FeedClock = SystemClock(),
                                configuration: FeedConfiguration = .init()) throws -> Opened {
        let store = try open(location, connections: connections)
        let tokens = try SessionTokens(store: store)
        return Opened(feed: Feed(store: store, clock: clock, configuration: configuration), tokens: tokens)
    }

    /// Where `location` is, for what start-up says it serves: a SQLite path as given, a store in
    /// memory, or a PostgreSQL URL with any password masked.
    public static func describe(_ location: String) -> String {
        if isPostgresURL(location) { return PGSettings.masked(location) }
        return file(location) ?? "a store in memory"
    }

    /// The SQLite file `location` names; nil for a store in memory (`:memory:`, or no path) and
    /// for a PostgreSQL URL.
    public static func file(_ location: String) -> String? {
        isPostgresURL(location) || location == ":memory:" || location.isEmpty ? nil : location
    }

    /// True for `postgres://…` and `postgresql://…` URLs.
    static func isPostgresURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// A `PostgresStore` for a `postgres://` or `postgresql://` URL, else a `SQLiteStore` at the
    /// path. `connections` sizes the PostgreSQL pool (one per server thread, plus one for chores)
    /// unless the URL says `pool_size=N`.
    static func open(_ location: String, connections: Int) throws(StoreError) -> any FeedStore {
        if isPostgresURL(location) {
            return try PostgresStore(url: location, poolSize: connections)
        }
        return try SQLiteStore(path: location)
    }
}

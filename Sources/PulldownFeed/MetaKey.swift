/// The names under which the feed keeps its small facts in a store's key/value table
/// (`FeedStoreReading.metaDouble(_:)` and the other meta calls).
enum MetaKey {
    /// Unix seconds of the newest seeded, added or generated item; drives the demo generator.
    static let lastItemTime = "last_item_time"
    /// The feed's identity (`FeedID`): 8 random bytes, created with the store, renewed by a reset.
    static let feedID = "feed_id"
    /// 32 random bytes that sign session tokens.
    static let tokenSecret = "token_secret"
    /// The SHA-256 of the data file the items came from (`--data`), up to the end of the last
    /// entry taken in; absent for demo items.
    static let dataSource = "data_source"
    /// Where in that file the last entry taken in ends (`DataSourceMark.resume`).
    static let dataSourceResume = "data_source_resume"
    /// Moves with every change of the demo knobs a shared store keeps (`SharedDemoKnobs`).
    static let demoKnobsRevision = "demo_knobs_revision"
}

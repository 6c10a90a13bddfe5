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
    /// The newest id of a feed that holds nothing but demo items (seeded, generated, or added by
    /// the demo API); absent, or below the newest id, once anything else was added (a post).
    static let demoFeedThrough = "demo_feed_through"
    /// How many demo items were taken from the demo sequence since the feed was seeded or
    /// reset: where the next one comes from (`DemoSequence`).
    static let demoItemsDrawn = "demo_items_drawn"

    /// The change log no longer holds every change numbered up to this one (pruned, or before
    /// a reset): a `since` below it is too old.
    static let changesFloor = "changes_floor"
    /// Unix seconds up to which the demo's edits (then its deletions) were made
    /// (`ChurnSchedule`): every instance on a shared store goes on from the same time.
    static let churnEditsTime = "churn_edits_time"
    static let churnDeletesTime = "churn_deletes_time"

    /// What the store remembers of where its items came from: gone with them in a reset.
    static let contentsFacts = [dataSource, dataSourceResume, demoFeedThrough, demoItemsDrawn]
}

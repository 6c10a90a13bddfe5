import Foundation

/// Tunables of the feed; the defaults suit the demo.
public struct FeedConfiguration: Sendable {
    /// Seconds between generated demo items (on a refresh, and while the live feed is watched);
    /// 0 turns the generator off.
    public var newItemsEvery: TimeInterval = 5
    /// Seeds the order of the demo items added after the seed (`DemoSequence`): the same seed,
    /// the same items.
    public var demoSeed: UInt64 = 0
    /// Sessions idle longer than this are removed by `Feed.expireIdleSessions()`.
    public var sessionTTL: TimeInterval = 30 * 86400
    /// Edits and deletions the change log keeps (one an item, its latest): a client further
    /// behind starts over from the newest page. Up to 64 more may be kept between prunings.
    public var changesKept = 10_000

    public init() {}
}

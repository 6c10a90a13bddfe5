import Foundation

/// Tunables of the feed; the defaults suit the demo.
public struct FeedConfiguration: Sendable {
    /// Largest page the feed returns; larger limits are clamped.
    public var maxPageSize = 100
    /// Seconds between generated demo items on refresh; 0 turns the generator off.
    public var newItemsEvery: TimeInterval = 5
    /// Sessions idle longer than this are removed by `Feed.expireIdleSessions()`.
    public var sessionTTL: TimeInterval = 30 * 86400

    public init() {}
}

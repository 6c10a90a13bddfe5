import PulldownFeed

/// The feed is the source of live events.
extension Feed: LiveSource {
    func newestItemID() throws -> Int64? {
        newestID()
    }
}

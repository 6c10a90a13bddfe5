import XCTest
@testable import PulldownFeed

/// `FeedRevision`: what the feed knows between calls. A reset leaves the identity and newest id it
/// made, and nothing read from the store before it is merged back after it.
final class FeedRevisionTests: XCTestCase {
    func testWhatWasReadBeforeAResetIsNotKeptAfterIt() {
        let revision = FeedRevision()
        _ = revision.merge(newest: 40, readAt: revision.resets)
        let old = FeedID.random(), new = FeedID.random()
        let readAt = revision.resets
        revision.noteReset(to: new, newest: 0)
        // Read before the reset, merged after it: the old feed's.
        XCTAssertEqual(revision.merge(newest: 40, readAt: readAt), 0)
        XCTAssertEqual(revision.merge(feedID: old, readAt: readAt), new)
        revision.noteStoreAnswered(newest: 40, feedID: old, readAt: readAt)
        XCTAssertEqual(revision.newestID, 0)
        XCTAssertEqual(revision.feedID, new)
        // Read after it: kept.
        XCTAssertEqual(revision.merge(newest: 42, readAt: revision.resets), 42)
    }

    func testAnotherProcesssResetSeenByTheSharedCheckBringsTheNewFeedsNewestID() {
        let revision = FeedRevision()
        let old = FeedID.random(), new = FeedID.random()
        revision.noteStoreAnswered(newest: 40, feedID: old, readAt: revision.resets)
        revision.noteStoreAnswered(newest: 38, feedID: old, readAt: revision.resets)
        XCTAssertEqual(revision.newestID, 40, "within one feed the newest id only grows")
        let before = revision.current
        // Emptied by another process: the newest id is the new feed's, though lower.
        revision.noteStoreAnswered(newest: 0, feedID: new, readAt: revision.resets)
        XCTAssertEqual(revision.newestID, 0)
        XCTAssertEqual(revision.feedID, new)
        XCTAssertGreaterThan(revision.current, before)
    }
}

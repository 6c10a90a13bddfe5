import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// A feed's identity (`FeedID`): kept by its store, its own in every other store, renewed by a
/// reset; and `Feed.reading(inFeed:_:)`, which answers only for the feed it was asked about.
class FeedIdentityTests: FeedStoreTestCase {
    func testAStoreKeepsItsIdentityAndAnotherStoreHasItsOwn() throws {
        let open = try backend.makeLocation(self)
        let first = try PulldownFeedTests.makeFeed(store: open()).feedID()
        XCTAssertEqual(try PulldownFeedTests.makeFeed(store: open()).feedID(), first, "reopened, or a second instance on it")
        XCTAssertNotEqual(try makeFeed().feedID(), first, "a new store starts its ids again: a feed of its own")
        XCTAssertEqual(FeedID(first.text), first)
        XCTAssertTrue(first.text.allSatisfy { "0123456789abcdef".contains($0) } && first.text.count == 16)
    }

    func testAResetRenewsTheIdentityWithItsDeletionsAndMovesTheRevision() throws {
        let feed = try makeFeed()
        _ = try feed.seedIfEmpty(count: 5)
        let old = try feed.feedID()
        let revision = feed.revision.current
        try feed.resetToDemo(count: 0)
        let new = try feed.feedID()
        XCTAssertNotEqual(new, old)
        XCTAssertGreaterThan(feed.revision.current, revision, "pages kept for the revision are stale")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items, [])
        XCTAssertNil(try feed.reading(inFeed: old) { "read" }, "the old feed is gone")
        XCTAssertEqual(try feed.reading(inFeed: new) { "read" }, "read")
    }

    func testAReadDuringWhichTheFeedWasResetIsNotTheFeedsAnswer() throws {
        let feed = try makeFeed()
        _ = try feed.seedIfEmpty(count: 5)
        let old = try feed.feedID()
        let page = try feed.reading(inFeed: old) { () throws -> ItemPage in
            try feed.resetToDemo(count: 0)
            return try feed.page(before: 3, limit: 10)   // read after the reset: not the old feed's page
        }
        XCTAssertNil(page)
    }

    func testAnotherInstancesResetIsSeenByTheStoreNotByWhatWasKnown() throws {
        let open = try backend.makeLocation(self)
        let ours = PulldownFeedTests.makeFeed(store: try open())
        _ = try ours.seedIfEmpty(count: 5)
        let old = try ours.feedID()
        let theirs = PulldownFeedTests.makeFeed(store: try open())
        try theirs.resetToDemo(count: 0)
        // Whatever this instance heard or not: the read is checked against the store after it.
        XCTAssertNil(try ours.reading(inFeed: old) { try ours.page(before: 3, limit: 10) })
        XCTAssertEqual(try ours.feedID(), try theirs.feedID(), "and what it knows is read again")
    }

    func testAnImportWithResetRenewsTheIdentityAndOneWithoutKeepsIt() throws {
        let feed = try makeFeed()
        let old = try feed.feedID()
        let source = ListedEntries([ImportedItem(new: NewItem(title: "a", body: ""), createdAt: nil)], mark: "file")
        _ = try feed.importItems(from: source, replacing: .nothing)
        XCTAssertEqual(try feed.feedID(), old)
        _ = try feed.importItems(from: source, replacing: .everything)
        XCTAssertNotEqual(try feed.feedID(), old)
    }
}

final class PostgresFeedIdentityTests: FeedIdentityTests {
    override var backend: any StoreBackend { PostgresBackend() }
    override func setUpWithError() throws { try PostgresBackend.skipUnlessConfigured() }

    override func testAStoreKeepsItsIdentityAndAnotherStoreHasItsOwn() throws { try super.testAStoreKeepsItsIdentityAndAnotherStoreHasItsOwn() }
    override func testAResetRenewsTheIdentityWithItsDeletionsAndMovesTheRevision() throws { try super.testAResetRenewsTheIdentityWithItsDeletionsAndMovesTheRevision() }
    override func testAReadDuringWhichTheFeedWasResetIsNotTheFeedsAnswer() throws { try super.testAReadDuringWhichTheFeedWasResetIsNotTheFeedsAnswer() }
    override func testAnotherInstancesResetIsSeenByTheStoreNotByWhatWasKnown() throws { try super.testAnotherInstancesResetIsSeenByTheStoreNotByWhatWasKnown() }
    override func testAnImportWithResetRenewsTheIdentityAndOneWithoutKeepsIt() throws { try super.testAnImportWithResetRenewsTheIdentityAndOneWithoutKeepsIt() }
}

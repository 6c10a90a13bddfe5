import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// `Feed.reset`: the one way to start over, for `--reset`, `POST /api/demo/reset` and a data file
/// that replaces the feed. Everything goes and comes back as a new store's; whatever remembered
/// the old feed hears of it.
class ResetTests: FeedStoreTestCase {
    private func titles(_ feed: Feed) throws -> [String] {
        try feed.page(before: nil, limit: 100).items.map(\.title)
    }

    func testAResetDeletesItemsAndSessionsAndSeedsTheDemoAsANewStoreWould() throws {
        let fresh = try makeFeed()
        try fresh.seedIfEmpty(count: 5)
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        _ = try feed.addItem(NewItem(title: "Posted", body: ""))
        _ = try feed.addDemoItems(count: 2)
        let session = SessionID.random()
        _ = try feed.refresh(session: session, after: nil, limit: 10)

        let newest = try feed.resetToDemo(count: 5)
        XCTAssertEqual(try titles(feed), try titles(fresh))
        XCTAssertNil(try feed.session(session), "sessions are gone")
        XCTAssertEqual(try feed.dataSourceState(), .demo)
        XCTAssertEqual(newest, 13, "ids go on growing: no cursor of the old feed names a new item")
        XCTAssertEqual(try feed.page(before: nil, limit: 100).items.map(\.id), Array((9...13).reversed()))
    }

    func testPictureOriginsArriveWithTheirItemsAndAResetEmptiesThem() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 3)
        XCTAssertEqual(try feed.pictureOrigins(), [], "the demo's pictures are this server's own")
        _ = try feed.addItem(NewItem(title: "A", body: "", userFields: #"{"avatar":"https://CDN.example:443/a.png","#
                                     + #""image":{"url":"http://127.0.0.1:9000/p.png","width":1,"height":1}}"#))
        _ = try feed.addItem(NewItem(title: "B", body: "", userFields: #"{"url":"https://blog.example/post","avatar":"/a.png"}"#))
        _ = try feed.addItem(NewItem(title: "C", body: "", userFields: #"{"avatar":"https://cdn.example/b.png"}"#))
        XCTAssertEqual(try feed.pictureOrigins(), ["http://127.0.0.1:9000", "https://cdn.example"])
        try feed.resetToDemo(count: 3)
        XCTAssertEqual(try feed.pictureOrigins(), [], "the reset's feed draws only the demo's pictures")
    }

    func testAResetMovesTheRevisionRenewsTheIdentityAndIsHeard() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        let heard = Mutex<[Int64?]>([])
        feed.observeResets { newest in heard.withLock { $0.append(newest) } }
        let (revision, identity) = (feed.revisionAfterCheck(), try feed.feedID())

        try feed.resetToDemo(count: 3)
        XCTAssertGreaterThan(feed.revisionAfterCheck(), revision)
        XCTAssertNotEqual(try feed.feedID(), identity)
        XCTAssertEqual(try feed.newestID(), 8)
        // Emptied: the newest id is no more, though ids go on from where they were.
        try feed.resetToDemo(count: 0)
        XCTAssertNil(try feed.newestID())
        XCTAssertEqual(heard.withLock { $0 }, [8, nil])
        XCTAssertEqual(try feed.addItem(NewItem(title: "After", body: "")).id, 9)
    }

    func testARefusedResetChangesNothing() throws {
        struct Refused: Error {}
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        let (revision, identity) = (feed.revisionAfterCheck(), try feed.feedID())
        XCTAssertThrowsError(try feed.reset(unless: { _ in throw Refused() }, refill: { _ in XCTFail("refilled") }))
        XCTAssertEqual(try feed.itemCount(), 5)
        XCTAssertEqual(feed.revisionAfterCheck(), revision)
        XCTAssertEqual(try feed.feedID(), identity)
    }

    func testTheFeedIsTheDemosUntilSomethingIsPosted() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 1)
        XCTAssertEqual(try feed.dataSourceState(), .empty)
        try feed.seedIfEmpty(count: 3)
        XCTAssertEqual(try feed.dataSourceState(), .demo)
        _ = try feed.addDemoItems(count: 2)
        clock.advance(by: 2)
        _ = try feed.refresh(session: SessionID.random(), after: nil, limit: 10)
        XCTAssertGreaterThan(try XCTUnwrap(feed.newestID()), 5, "the generator added some")
        XCTAssertEqual(try feed.dataSourceState(), .demo, "demo items, seeded or added, are the demo feed")
        _ = try feed.addItem(NewItem(title: "Mine", body: ""))
        _ = try feed.addDemoItems(count: 1)
        XCTAssertEqual(try feed.dataSourceState(), .otherItems, "a post stays a post under later demo items")
        try feed.resetToDemo(count: 0)
        XCTAssertEqual(try feed.dataSourceState(), .empty)
        _ = try feed.addDemoItems(count: 1)
        XCTAssertEqual(try feed.dataSourceState(), .demo, "--seed 0 and the generator: still the demo's")
    }
}

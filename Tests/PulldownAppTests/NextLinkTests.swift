import Foundation
import PulldownFeed
@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

final class NextLinkTests: XCTestCase {
    private let feed = FeedID("0123456789abcdef")!
    private let base = "http://192.168.1.20:8080"

    /// Every link names the feed its cursor came from, absolute, as a native client can use it.
    func testTheNewestPageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: testPage([50, 49, 48], hasMore: true), limit: 3, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=3&before=48&feed=0123456789abcdef>; rel="next""#)
    }

    func testABeforePageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: testPage([29, 28], hasMore: true), limit: 2, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=2&before=28&feed=0123456789abcdef>; rel="next""#)
    }

    func testAnAfterPageLinksToTheItemsAfterItsNewest() {
        let link = API.nextLink(page: testPage([15, 14, 13], .newer, hasMore: true), limit: 3, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=3&after=15&feed=0123456789abcdef>; rel="next""#)
    }

    func testTheLastPageHasNoLink() {
        XCTAssertNil(API.nextLink(page: testPage([2, 1], hasMore: false), limit: 10, feed: feed, base: base))
        XCTAssertNil(API.nextLink(page: testPage([50], .newer, hasMore: false), limit: 10, feed: feed, base: base))
    }

    func testAnEmptyPageHasNoLinkEvenIfMoreIsClaimed() {
        XCTAssertNil(API.nextLink(page: testPage([], hasMore: true), limit: 10, feed: feed, base: base))
    }
}

/// The links and cursors of a page around an item and of a range, and what a request's plan
/// decides: short pages, expiring cursors, counts.
final class PagePlanTests: XCTestCase {
    private let feed = FeedID("0123456789abcdef")!
    private let base = "http://h"

    func testAPageAroundAnItemLinksBothWays() {
        let page = ItemPage(items: testItems([12, 11, 10]), direction: .older, hasMore: true,
                            form: .around(anchor: 11, found: true, newer: 12))
        XCTAssertEqual(API.nextLink(page: page, limit: 3, feed: feed, base: base),
                       #"<http://h/api/items?limit=3&after=12&feed=0123456789abcdef>; rel="prev", "#
                       + #"<http://h/api/items?limit=3&before=10&feed=0123456789abcdef>; rel="next""#)
        let top = ItemPage(items: testItems([12, 11]), direction: .older, hasMore: false, form: .around(anchor: 11, found: true, newer: nil))
        XCTAssertNil(API.nextLink(page: top, limit: 3, feed: feed, base: base), "nothing beyond either side")
    }

    func testARangeLinksInsideItselfUntilDone() {
        let open = ItemPage(items: testItems([19, 18]), direction: .older, hasMore: true, form: .between(after: 10, done: false))
        XCTAssertEqual(API.nextLink(page: open, limit: 2, feed: feed, base: base),
                       #"<http://h/api/items?limit=2&after=10&before=18&feed=0123456789abcdef>; rel="next""#)
        XCTAssertEqual(API.nextCursor(open), 18)
        let done = ItemPage(items: testItems([12, 11]), direction: .older, hasMore: true, form: .between(after: 10, done: true))
        XCTAssertNil(API.nextLink(page: done, limit: 2, feed: feed, base: base), "done, though the feed goes on")
        XCTAssertNil(API.nextCursor(done))
    }

    func testExpiringCursorsStampTheirLinks() {
        let link = API.nextLink(page: testPage([5, 4], hasMore: true), limit: 2, feed: feed, base: base, issued: 1_796_000_000)
        XCTAssertEqual(link, #"<http://h/api/items?limit=2&before=4&feed=0123456789abcdef&issued=1796000000>; rel="next""#)
    }

    private func plan(_ query: ItemsQuery, short: Double = 0, ttl: Int = 0, now: Int64 = 1000, roll: Double = 0.5) throws(Problem) -> PagePlan {
        try PagePlan(query, shortPages: short, cursorTtlSeconds: ttl, now: now, roll: roll)
    }

    func testWithTheKnobsOffAPageIsWhatWasAskedAndMayBeKept() throws {
        let plain = try plan(ItemsQuery(limit: 10, cursor: .before(50), issued: 3))
        XCTAssertEqual(plain.readLimit, 10)
        XCTAssertNil(plain.issued, "no time in links, and an issued= means nothing")
        XCTAssertTrue(plain.keepable)
        XCTAssertFalse(try plan(ItemsQuery(limit: 10, cursor: .newest, count: true)).keepable, "a count is never kept")
    }

    func testAShortPageReadsFewerPlacesWhenTheDiceSaySoButNeverAroundOrForOne() throws {
        XCTAssertEqual(try plan(ItemsQuery(limit: 10, cursor: .before(50)), short: 0.6, roll: 0.5).readLimit, 5)
        XCTAssertEqual(try plan(ItemsQuery(limit: 10, cursor: .before(50)), short: 0.4, roll: 0.5).readLimit, 10)
        XCTAssertEqual(try plan(ItemsQuery(limit: 2, cursor: .newest), short: 1, roll: 0).readLimit, 1)
        XCTAssertEqual(try plan(ItemsQuery(limit: 1, cursor: .newest), short: 1, roll: 0).readLimit, 1)
        XCTAssertEqual(try plan(ItemsQuery(limit: 10, cursor: .around(5)), short: 1, roll: 0).readLimit, 10)
        XCTAssertFalse(try plan(ItemsQuery(limit: 10, cursor: .after(5)), short: 1, roll: 0).keepable)
    }

    func testACursorOlderThanItsTimeIsGoneAndABareOneIsNot() throws {
        XCTAssertThrowsError(try plan(ItemsQuery(limit: 5, cursor: .before(9), issued: 900), ttl: 60, now: 1000)) { error in
            XCTAssertEqual((error as? Problem)?.status, 410)
            XCTAssertEqual((error as? Problem)?.type, "tag:pulldown,2026:cursor-expired")
        }
        let fresh = try plan(ItemsQuery(limit: 5, cursor: .before(9), issued: 940), ttl: 60, now: 1000)
        XCTAssertEqual(fresh.issued, 1000, "links carry the time they were issued")
        XCTAssertFalse(fresh.keepable)
        XCTAssertEqual(try plan(ItemsQuery(limit: 5, cursor: .before(9)), ttl: 60).issued, 1000, "a bare cursor is served")
    }
}


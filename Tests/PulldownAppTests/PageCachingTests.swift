import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

/// Which pages can never change, and the cache that keeps them.
final class PageCachingTests: XCTestCase {
    private static let feed = FeedID("0123456789abcdef")!

    /// A query whose URL names the feed, as the links the server hands out do.
    private func named(_ cursor: ItemsQuery.Cursor, limit: Int = 2) -> ItemsQuery {
        ItemsQuery(limit: limit, cursor: cursor, feed: Self.feed)
    }

    func testOnlyAURLThatNamesItsFeedIsEverImmutable() {
        // Item ids start again in another store: without the feed, the same URL can name other items.
        for cursor in [ItemsQuery.Cursor.before(9), .after(3)] {
            let page = testPage([5, 4], cursor == .after(3) ? .newer : .older, hasMore: true)
            XCTAssertTrue(PageCaching.isImmutable(named(cursor), page: page, newestID: 9))
            XCTAssertFalse(PageCaching.isImmutable(ItemsQuery(limit: 2, cursor: cursor), page: page, newestID: 9))
        }
        XCTAssertTrue(PageCaching.isItemImmutable(named: Self.feed))
        XCTAssertFalse(PageCaching.isItemImmutable(named: nil))
        XCTAssertNil(ImmutablePageCache.Key(ItemsQuery(limit: 2, cursor: .before(9)), base: BaseURL.Key(host: "x", isTLS: false)), "nothing kept without a feed")
    }

    func testTheNewestPageIsNeverImmutable() {
        let query = named(.newest)
        XCTAssertFalse(PageCaching.isImmutable(query, page: testPage([9, 8], hasMore: true), newestID: 9))
    }

    func testABeforePageIsImmutableOnceEveryIdBelowItsCursorIsCommitted() {
        let below = named(.before(9))
        XCTAssertTrue(PageCaching.isImmutable(below, page: testPage([8, 7], hasMore: true), newestID: 9))
        XCTAssertTrue(PageCaching.isImmutable(named(.before(10)), page: testPage([9, 8], hasMore: true), newestID: 9),
                      "before newest + 1 covers only committed ids")
        XCTAssertFalse(PageCaching.isImmutable(named(.before(11)), page: testPage([9, 8], hasMore: true), newestID: 9),
                       "id 10 may still come, and would belong on this page")
        XCTAssertFalse(PageCaching.isImmutable(below, page: testPage([], hasMore: false), newestID: nil), "an empty feed")
    }

    func testAnAfterPageIsImmutableOnlyWhenFullAndNewerItemsExist() {
        let query = named(.after(3))
        XCTAssertTrue(PageCaching.isImmutable(query, page: testPage([5, 4], .newer, hasMore: true), newestID: 9))
        XCTAssertFalse(PageCaching.isImmutable(query, page: testPage([5, 4], .newer, hasMore: false), newestID: 5),
                       "hasMore turns true with the next insert")
        XCTAssertFalse(PageCaching.isImmutable(query, page: testPage([4], .newer, hasMore: false), newestID: 4), "not full yet")
    }

    func testTheCacheKeepsTheMostRecentlyUsedWithinItsBudget() {
        var cache = LRUCache<String, Int>(capacity: 10)
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "b", cost: 4)
        XCTAssertEqual(cache.value(for: "a"), 1)   // a is now the most recently used
        cache.insert(3, for: "c", cost: 4)         // over budget: b goes
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertEqual(cache.value(for: "a"), 1)
        XCTAssertEqual(cache.value(for: "c"), 3)
        XCTAssertEqual(cache.totalCost, 8)
        cache.insert(4, for: "huge", cost: 11)
        XCTAssertNil(cache.value(for: "huge"), "costlier than the whole budget: not kept")
        cache.insert(5, for: "a", cost: 2)
        XCTAssertEqual(cache.value(for: "a"), 5, "a new value replaces the old one")
        XCTAssertEqual(cache.totalCost, 6)
        XCTAssertEqual(cache.count, 2)
    }

    func testEvictionWalksFromTheLeastRecentlyUsedUnderChurn() {
        var cache = LRUCache<Int, Int>(capacity: 100)
        for key in 0..<1000 {
            cache.insert(key, for: key, cost: 10)
            _ = cache.value(for: 0)   // 0 stays hot
        }
        XCTAssertEqual(cache.count, 10)
        XCTAssertEqual(cache.value(for: 0), 0)
        XCTAssertEqual(cache.value(for: 999), 999)
        XCTAssertNil(cache.value(for: 990))
        XCTAssertLessThanOrEqual(cache.totalCost, 100)
    }
}

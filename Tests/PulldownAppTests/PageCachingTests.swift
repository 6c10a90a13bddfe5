import Foundation
import PulldownHTTP
import PulldownFeed
import XCTest
@testable import PulldownApp

/// Which answers are kept in memory and what they cover, what is immutable, and the cache.
final class PageCachingTests: XCTestCase {
    private static let feed = FeedID("0123456789abcdef")!
    private static let base = BaseURL.Key(host: "127.0.0.1:8080", isTLS: false)

    /// A query whose URL names the feed, as the links the server hands out do.
    private func named(_ cursor: ItemsQuery.Cursor, limit: Int = 2) -> ItemsQuery {
        ItemsQuery(limit: limit, cursor: cursor, feed: Self.feed)
    }

    func testOnlyAURLThatNamesItsFeedIsKept() {
        // Item ids start again in another store: without the feed, the same URL can name other items.
        for cursor in [ItemsQuery.Cursor.before(9), .after(3)] {
            let page = testPage([5, 4], cursor == .after(3) ? .newer : .older, hasMore: true)
            XCTAssertNotNil(PageCaching.keptRange(named(cursor), page: page, newestID: 9))
            XCTAssertNil(PageCaching.keptRange(ItemsQuery(limit: 2, cursor: cursor), page: page, newestID: 9))
        }
        XCTAssertNil(ValidatedPageCache.Key(ItemsQuery(limit: 2, cursor: .before(9)), base: Self.base), "nothing kept without a feed")
    }

    func testNothingThatHoldsAnItemIsImmutableOnlyADeletedItemsGoneInItsFeed() {
        XCTAssertEqual(PageCaching.gone(named: Self.feed), PageCaching.immutable)
        XCTAssertEqual(PageCaching.gone(named: nil), CacheControl.noCache, "another store may have that id")
    }

    func testTheNewestPageIsNeverKept() {
        XCTAssertNil(PageCaching.keptRange(named(.newest), page: testPage([9, 8], hasMore: true), newestID: 9))
    }

    func testABeforePageIsKeptOnceEveryIdBelowItsCursorIsCommittedAndCoversItsPlaces() {
        let below = named(.before(9))
        XCTAssertEqual(PageCaching.keptRange(below, page: testPage([8, 7], hasMore: true), newestID: 9), 7...8)
        XCTAssertEqual(PageCaching.keptRange(below, page: ItemPage(items: testItems([8]), direction: .older, hasMore: true, edge: 6),
                                             newestID: 9), 6...8, "a deleted item's place at the end is covered too")
        XCTAssertEqual(PageCaching.keptRange(named(.before(10)), page: testPage([9, 8], hasMore: true), newestID: 9), 8...9,
                       "before newest + 1 covers only committed ids")
        XCTAssertNil(PageCaching.keptRange(named(.before(11)), page: testPage([9, 8], hasMore: true), newestID: 9),
                     "id 10 may still come, and would belong on this page")
        XCTAssertNil(PageCaching.keptRange(below, page: testPage([], hasMore: false), newestID: nil), "an empty feed")
        XCTAssertEqual(PageCaching.keptRange(named(.before(1)), page: testPage([], hasMore: false), newestID: 5), 1...1,
                       "nothing below it, ever")
    }

    func testAnAfterPageIsKeptOnlyWhenFullAndNewerItemsExist() {
        let query = named(.after(3))
        XCTAssertEqual(PageCaching.keptRange(query, page: testPage([5, 4], .newer, hasMore: true), newestID: 9), 4...5)
        XCTAssertNil(PageCaching.keptRange(query, page: testPage([5, 4], .newer, hasMore: false), newestID: 5),
                     "hasMore turns true with the next insert")
        XCTAssertNil(PageCaching.keptRange(query, page: testPage([4], .newer, hasMore: false), newestID: 4), "not full yet")
    }

    func testAChangeDropsExactlyTheAnswersThatCoverItsItem() {
        let cache = ValidatedPageCache(bytes: 1 << 20)
        let deep = ValidatedPageCache.Key(named(.before(9)), base: Self.base)!, item = ValidatedPageCache.Key(item: 3, in: Self.feed, base: Self.base)
        _ = cache.keep(.json(Array("deep".utf8)), for: deep, ids: 7...8, builtAt: cache.epoch)
        _ = cache.keep(.json(Array("item".utf8)), for: item, ids: 3...3, builtAt: cache.epoch)
        cache.drop([5])
        XCTAssertNotNil(cache.response(for: deep), "5 is on neither")
        XCTAssertNotNil(cache.response(for: item))
        cache.drop([2, 8])
        XCTAssertNil(cache.response(for: deep))
        XCTAssertNotNil(cache.response(for: item))
        cache.drop(nil)
        XCTAssertNil(cache.response(for: item), "changes may have been missed: everything goes")
    }

    func testAnAnswerBuiltWhileAChangeWasDroppingIsNotKept() {
        let cache = ValidatedPageCache(bytes: 1 << 20)
        let key = ValidatedPageCache.Key(item: 3, in: Self.feed, base: Self.base)
        let epoch = cache.epoch   // the build reads the store after this...
        cache.drop([3])           // ...and the change commits and drops before it is kept
        let answered = cache.keep(.json(Array("stale".utf8)), for: key, ids: 3...3, builtAt: epoch)
        XCTAssertEqual(answered.body, Array("stale".utf8), "still the answer to the request that built it")
        XCTAssertNil(cache.response(for: key), "but not kept: it may hold what the drop was for")
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

/// Which pages around an item and within a range are kept, and what they cover.
final class AroundAndRangeCachingTests: XCTestCase {
    private static let feed = FeedID("0123456789abcdef")!

    private func named(_ cursor: ItemsQuery.Cursor) -> ItemsQuery {
        ItemsQuery(limit: 3, cursor: cursor, feed: Self.feed)
    }

    func testAPageAroundAnItemIsKeptOnceNewerPlacesExistAndCoversItsPlaces() {
        let fixed = ItemPage(items: testItems([12, 11, 10]), direction: .older, hasMore: true, form: .around(anchor: 11, found: true, newer: 12))
        XCTAssertEqual(PageCaching.keptRange(named(.around(11)), page: fixed, newestID: 20), 10...12)
        let top = ItemPage(items: testItems([20, 19, 18]), direction: .older, hasMore: true, form: .around(anchor: 19, found: true, newer: nil))
        XCTAssertNil(PageCaching.keptRange(named(.around(19)), page: top, newestID: 20), "an insert moves its window")
    }

    func testARangeIsKeptOnceItsUpperCursorIsCommittedAndCoversWhatItRead() {
        let open = ItemPage(items: testItems([19, 18, 17]), direction: .older, hasMore: true, form: .between(after: 10, done: false))
        XCTAssertEqual(PageCaching.keptRange(named(.between(after: 10, before: 20)), page: open, newestID: 30), 17...19)
        let done = ItemPage(items: testItems([12, 11]), direction: .older, hasMore: true, form: .between(after: 10, done: true))
        XCTAssertEqual(PageCaching.keptRange(named(.between(after: 10, before: 13)), page: done, newestID: 30), 11...12)
        XCTAssertNil(PageCaching.keptRange(named(.between(after: 10, before: 40)), page: open, newestID: 30), "places may still come")
        let empty = ItemPage(items: [], direction: .older, hasMore: true, edge: nil, form: .between(after: 10, done: true))
        XCTAssertEqual(PageCaching.keptRange(named(.between(after: 10, before: 11)), page: empty, newestID: 30), 11...11)
    }
}

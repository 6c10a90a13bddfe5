import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

class PagingTests: FeedStoreTestCase {
    func testPagingWalksEveryItemExactlyOnceWhileNewItemsArrive() throws {
        let feed = try makeFeed()
        XCTAssertEqual(try feed.seedIfEmpty(count: 95), 95)
        let original = Set(1...95).map(Int64.init)

        var seen: [Int64] = []
        var cursor: Int64? = nil
        var pages = 0
        while true {
            let page = try feed.page(before: cursor, limit: 10)
            seen += page.items.map(\.id)
            pages += 1
            // Items arriving at the top must not shift the pages below.
            _ = try feed.addItem(NewItem(title: "Arrived during page \(pages)", body: "", author: nil))
            guard page.hasMore else { break }
            cursor = page.items.last?.id
        }

        XCTAssertEqual(pages, 10)
        XCTAssertEqual(seen, seen.sorted(by: >), "pages are newest first, across page boundaries too")
        XCTAssertEqual(seen.count, Set(seen).count, "no item shown twice")
        XCTAssertEqual(Set(seen), Set(original), "every item present at the start is walked, nothing skipped")
    }

    func testFirstPageIsNewestAndHasMoreIsFalseAtTheEnd() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        let first = try feed.page(before: nil, limit: 3)
        XCTAssertEqual(first.items.map(\.id), [5, 4, 3])
        XCTAssertTrue(first.hasMore)
        let last = try feed.page(before: 3, limit: 3)
        XCTAssertEqual(last.items.map(\.id), [2, 1])
        XCTAssertFalse(last.hasMore)
        let exact = try feed.page(before: 4, limit: 3)
        XCTAssertEqual(exact.items.map(\.id), [3, 2, 1])
        XCTAssertFalse(exact.hasMore, "exactly `limit` items left is not 'more'")
        XCTAssertEqual(try feed.page(before: 1, limit: 3), ItemPage(items: [], direction: .older, hasMore: false))
    }

    func testNewerReturnsTheItemsImmediatelyAboveTheCursorAndReportsTheGap() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 30)

        let above = try feed.page(after: 10, limit: 5)
        XCTAssertEqual(above.items.map(\.id), [15, 14, 13, 12, 11], "contiguous from the cursor, newest first")
        XCTAssertTrue(above.hasMore, "16...30 are still missing above")

        let rest = try feed.page(after: 25, limit: 5)
        XCTAssertEqual(rest.items.map(\.id), [30, 29, 28, 27, 26])
        XCTAssertFalse(rest.hasMore)

        XCTAssertEqual(try feed.page(after: 30, limit: 5), ItemPage(items: [], direction: .newer, hasMore: false))
    }

    func testLimitsOutsideTheConfiguredRangeAreClamped() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 150)
        XCTAssertEqual(try feed.page(before: nil, limit: 0).items.count, 1)
        XCTAssertEqual(try feed.page(before: nil, limit: 10_000).items.count, 100)
        XCTAssertEqual(try feed.page(after: 0, limit: -3).items.map(\.id), [1])
    }

    func testNewestIDAndRevisionOnlyGrow() throws {
        let feed = try makeFeed()
        XCTAssertNil(try feed.newestID())
        XCTAssertEqual(feed.revisionAfterCheck(), 0)

        try feed.seedIfEmpty(count: 3)
        XCTAssertEqual(try feed.newestID(), 3)
        let afterSeed = feed.revisionAfterCheck()
        XCTAssertGreaterThan(afterSeed, 0)

        let item = try feed.addItem(NewItem(title: "Hello", body: "", author: nil))
        XCTAssertEqual(item.id, 4)
        XCTAssertEqual(try feed.newestID(), 4)
        XCTAssertGreaterThan(feed.revisionAfterCheck(), afterSeed)

        // A failed insert moves nothing.
        let beforeFailure = feed.revisionAfterCheck()
        XCTAssertThrowsError(try feed.addItem(NewItem(title: "", body: "", author: nil)))
        XCTAssertEqual(feed.revisionAfterCheck(), beforeFailure)
        XCTAssertEqual(try feed.newestID(), 4)
    }

    func testIDsAreNeverReusedAfterTheNewestRowIsDeleted() throws {
        let open = try backend.makeLocation(self)
        do {
            let feed = PulldownFeedTests.makeFeed(store: try open())
            try feed.seedIfEmpty(count: 3)
            try backend.execute("DELETE FROM items WHERE id = 3", on: feed.store)
        }
        let reopened = PulldownFeedTests.makeFeed(store: try open())
        XCTAssertEqual(try reopened.newestID(), 2)
        let item = try reopened.addItem(NewItem(title: "After delete", body: "", author: nil))
        XCTAssertEqual(item.id, 4, "id 3 was handed out once and must not come back")
    }

    func testAddedItemReadsBackUnchangedWithWholeSecondUTCTime() throws {
        let clock = ManualClock(testNow.addingTimeInterval(0.75))
        let feed = try makeFeed(clock: clock)
        let item = try feed.addItem(NewItem(title: "  Tidy title \n", body: "Line one\r\nLine two\tend", author: "  Ada  "))
        XCTAssertEqual(item.title, "Tidy title")
        XCTAssertEqual(item.body, "Line one\nLine two\tend")
        XCTAssertEqual(item.author, "Ada")
        XCTAssertEqual(item.createdAt, testNow, "stored to the whole second")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items, [item])
    }

    /// The submitter's own fields are stored as given and read back with the item, on every
    /// read path; an item without any reads back with none.
    func testOwnFieldsOfAnAddedItemReadBackAsGiven() throws {
        let feed = try makeFeed()
        let fields = #"{"avatar":"/a.svg","image":{"url":"https://example.com/p.png","width":640,"height":480},"likes":3,"tags":["é","x"]}"#
        let plain = try feed.addItem(NewItem(title: "Plain", body: ""))
        let own = try feed.addItem(NewItem(title: "Own", body: "", userFields: fields))
        XCTAssertEqual(own.userFields, fields)
        XCTAssertEqual(plain.userFields, "")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items, [own, plain])
        XCTAssertEqual(try feed.page(after: plain.id, limit: 10).items, [own])
    }

    /// The page around an item and a range, read from a store.
    func testAroundAndBetweenReadTheStoreAsThePureCutSays() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 30)
        let page = try feed.page(around: 15, limit: 4)
        XCTAssertEqual(page.items.map(\.id), [17, 16, 15, 14])
        XCTAssertEqual(page.form, .around(anchor: 15, found: true, newer: 17))
        let range = try feed.page(after: 10, before: 15, limit: 3)
        XCTAssertEqual(range.items.map(\.id), [14, 13, 12])
        XCTAssertEqual(range.form, .between(after: 10, done: false))
        let rest = try feed.page(after: 10, before: 12, limit: 3)
        XCTAssertEqual(rest.items.map(\.id), [11])
        XCTAssertEqual(rest.form, .between(after: 10, done: true))
        XCTAssertEqual(try feed.page(around: Int64.max, limit: 2).items.map(\.id), [30, 29])
    }
}

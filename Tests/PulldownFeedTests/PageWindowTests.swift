import Foundation
import XCTest
@testable import PulldownFeed

/// How a page around an item and a page within a range are cut from what their reads found.
final class PageWindowTests: XCTestCase {
    /// Places `ids` (newest first or oldest first, as given), the ones in `deleted` tombstones.
    private func places(_ ids: [Int64], deleted: Set<Int64> = []) -> [ItemPlace] {
        ids.map { id in
            ItemPlace(id: id, item: deleted.contains(id) ? nil
                        : Item(id: id, title: "Item \(id)", body: "", author: "t", createdAt: Date(timeIntervalSince1970: 0)))
        }
    }

    /// The page around `anchor` in a feed of places 1...count, read as the store would.
    private func around(_ anchor: Int64, limit: Int, count: Int64, deleted: Set<Int64> = []) -> ItemPage {
        let above = Array((anchor + 1)...max(anchor + 1, count)).filter { $0 <= count }.prefix(limit + 1)
        let below = Array(Array(1...min(anchor, count)).reversed().prefix(limit + 1))
        return PageWindow.around(anchor, limit: limit, above: places(Array(above), deleted: deleted),
                                 atOrBelow: places(anchor >= 1 ? below : [], deleted: deleted))
    }

    func testTheSplitPutsTheAnchorNearTheMiddleAndFillsFromTheOtherSideAtAnEnd() {
        XCTAssertTrue(PageWindow.aroundSplit(limit: 10, above: 11, atOrBelow: 11) == (5, 5))
        XCTAssertTrue(PageWindow.aroundSplit(limit: 9, above: 10, atOrBelow: 10) == (4, 5))
        XCTAssertTrue(PageWindow.aroundSplit(limit: 1, above: 2, atOrBelow: 2) == (0, 1), "the anchor alone")
        XCTAssertTrue(PageWindow.aroundSplit(limit: 10, above: 2, atOrBelow: 11) == (2, 8), "near the newest end")
        XCTAssertTrue(PageWindow.aroundSplit(limit: 10, above: 11, atOrBelow: 3) == (7, 3), "near the oldest end")
        XCTAssertTrue(PageWindow.aroundSplit(limit: 10, above: 2, atOrBelow: 3) == (2, 3), "a feed smaller than a page")
        XCTAssertTrue(PageWindow.aroundSplit(limit: 4, above: 0, atOrBelow: 0) == (0, 0))
    }

    func testAPageAroundAnItemHoldsItMidPageWithCursorsBothWays() {
        let page = around(50, limit: 5, count: 100)
        XCTAssertEqual(page.items.map(\.id), [52, 51, 50, 49, 48])
        XCTAssertEqual(page.form, .around(anchor: 50, found: true, newer: 52))
        XCTAssertTrue(page.hasMore)
        XCTAssertEqual(page.edge, 48)
    }

    func testAtTheNewestEndThereIsNoNewerCursorAndThePageIsFull() {
        let page = around(99, limit: 6, count: 100)
        XCTAssertEqual(page.items.map(\.id), [100, 99, 98, 97, 96, 95])
        XCTAssertEqual(page.form, .around(anchor: 99, found: true, newer: nil))
    }

    func testAtTheOldestEndThereIsNoOlderCursor() {
        let page = around(2, limit: 6, count: 100)
        XCTAssertEqual(page.items.map(\.id), [6, 5, 4, 3, 2, 1])
        XCTAssertFalse(page.hasMore)
        XCTAssertEqual(page.form, .around(anchor: 2, found: true, newer: 6))
    }

    func testADeletedAnchorAnswersWhereItWouldBeNotFound() {
        let page = around(50, limit: 5, count: 100, deleted: [50])
        XCTAssertEqual(page.items.map(\.id), [52, 51, 49, 48])
        XCTAssertEqual(page.form, .around(anchor: 50, found: false, newer: 52))
    }

    func testAnAnchorBeyondTheNewestIsTheNewestPageNotFound() {
        let page = PageWindow.around(500, limit: 3, above: [], atOrBelow: places([100, 99, 98, 97]))
        XCTAssertEqual(page.items.map(\.id), [100, 99, 98])
        XCTAssertEqual(page.form, .around(anchor: 500, found: false, newer: nil))
        XCTAssertTrue(page.hasMore)
    }

    func testAnEmptyFeedHasAnEmptyPageAroundAnything() {
        let page = PageWindow.around(7, limit: 3, above: [], atOrBelow: [])
        XCTAssertEqual(page.items, [])
        XCTAssertEqual(page.form, .around(anchor: 7, found: false, newer: nil))
        XCTAssertFalse(page.hasMore)
        XCTAssertNil(page.edge)
    }

    func testARangeLongerThanAPageGoesOnInsideIt() {
        // Places below 20, read with limit + 1.
        let page = PageWindow.between(after: 10, limit: 3, below: places([19, 18, 17, 16]))
        XCTAssertEqual(page.items.map(\.id), [19, 18, 17])
        XCTAssertEqual(page.form, .between(after: 10, done: false))
        XCTAssertEqual(page.edge, 17)
        XCTAssertTrue(page.hasMore)
    }

    func testARangeDoneAboveMoreOfTheFeedSaysBoth() {
        let page = PageWindow.between(after: 16, limit: 3, below: places([19, 18, 17, 16]))
        XCTAssertEqual(page.items.map(\.id), [19, 18, 17])
        XCTAssertEqual(page.form, .between(after: 16, done: true), "nothing between 16 and 17: done")
        XCTAssertTrue(page.hasMore, "the feed goes on below the range")
    }

    func testARangeDoneAtTheEndOfTheFeedSaysTheFeedEnds() {
        let page = PageWindow.between(after: 0, limit: 5, below: places([3, 2, 1]))
        XCTAssertEqual(page.items.map(\.id), [3, 2, 1])
        XCTAssertEqual(page.form, .between(after: 0, done: true))
        XCTAssertFalse(page.hasMore)
    }

    func testARangeOfTombstonesIsDoneWithNoItems() {
        let page = PageWindow.between(after: 17, limit: 5, below: places([19, 18, 17], deleted: [19, 18]))
        XCTAssertEqual(page.items, [])
        XCTAssertEqual(page.form, .between(after: 17, done: true))
        XCTAssertEqual(page.edge, 18)
    }

    func testAnEmptyRangeIsDone() {
        let page = PageWindow.between(after: 19, limit: 5, below: places([19, 18]))
        XCTAssertEqual(page.items, [])
        XCTAssertEqual(page.form, .between(after: 19, done: true))
        XCTAssertNil(page.edge)
    }
}

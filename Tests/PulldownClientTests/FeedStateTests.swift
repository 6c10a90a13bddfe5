import Foundation
import PulldownClient
import XCTest

/// The cases of Tests/js/feed-state.test.mjs about pages, refreshes and the feed's name, held to
/// the same rules (the page's window, heights and saved geometry are a List's own business).
final class FeedStateTests: XCTestCase {
    private let f1 = FeedID(rawValue: "f1"), f2 = FeedID(rawValue: "f2")

    func testPagesGoOnTheEndByCursorOneAtATimeNeverTwice() {
        var s = FeedState()
        XCTAssertEqual(s.nextPage(), .newest)
        XCTAssertNil(s.nextPage(), "one page at a time")
        s.add(items(30, 21), hasMore: true)
        XCTAssertEqual(s.nextPage(), .before(21))
        s.add(items(25, 11), hasMore: true) // overlaps what is loaded: only 20..11 are new
        XCTAssertEqual(ids(s), Array((11...30).reversed()))
        XCTAssertEqual(s.beginRefresh(), 30)
        XCTAssertNil(s.nextPage(), "no page while a refresh runs")
    }

    func testNoMorePagesAfterTheLastNorAfterAFailureUntilItIsRetried() {
        var s = FeedState()
        _ = s.nextPage()
        s.add(items(5, 1), hasMore: false)
        XCTAssertNil(s.nextPage())
        var f = FeedState()
        _ = f.nextPage()
        f.pageFailed()
        XCTAssertNil(f.nextPage(), "a failed page is not asked again by itself")
        XCTAssertEqual(f.retryPage(), .newest, "only when the reader asks")
        XCTAssertEqual(f.end, .loading)
        XCTAssertNil(f.retryPage(), "one page in flight at a time")
    }

    func testARefreshGoesOnTopNeverTwice() {
        var s = loaded(50)
        XCTAssertEqual(s.beginRefresh(), 50)
        XCTAssertEqual(s.refreshed(items(53, 51), gap: false), 3)
        XCTAssertEqual(s.newest, 53)
        XCTAssertEqual(s.items.count, 53)
        XCTAssertEqual(s.refreshed(items(53, 52), gap: false), 0, "nothing twice")
    }

    func testAGapStartsOverFromTheNewestPage() {
        var s = loaded(50)
        _ = s.beginRefresh()
        XCTAssertEqual(s.refreshed(items(90, 81), gap: true), 10)
        XCTAssertEqual(ids(s), Array((81...90).reversed()))
        XCTAssertEqual(s.end, .more, "more to come")
        XCTAssertNil(s.busy)
        XCTAssertEqual(s.nextPage(), .before(81))
    }

    func testIndexFindsAnIdByBinarySearchNilWhenNotLoaded() {
        let s = loaded(100)
        XCTAssertEqual(s.index(of: 100), 0)
        XCTAssertEqual(s.index(of: 1), 99)
        XCTAssertNil(s.index(of: 0))
        XCTAssertNil(s.index(of: 101))
    }

    func testTheRowUnderTheFeedLoadingTheErrorTheEmptyFeedTheEnd() {
        var s = FeedState()
        XCTAssertEqual(s.end, .more, "nothing asked for yet")
        _ = s.nextPage()
        XCTAssertEqual(s.end, .loading)
        s.pageFailed()
        XCTAssertEqual(s.end, .failed)
        _ = s.retryPage()
        s.add([], hasMore: false)
        XCTAssertEqual(s.end, .empty, "a feed without any item is empty, not at its end")
        _ = s.beginRefresh()
        XCTAssertEqual(s.end, .empty, "a refresh is not a page: the empty state stays while it runs")
        _ = s.refreshed(items(2, 1), gap: false)
        XCTAssertEqual(s.end, .end, "the first items make it a feed at its end")
        var t = FeedState()
        _ = t.nextPage()
        t.add(items(30, 21), hasMore: true)
        XCTAssertEqual(t.end, .more, "more to come")
        _ = t.nextPage()
        t.add(items(20, 11), hasMore: false)
        XCTAssertEqual(t.end, .end)
    }

    func testWithoutAFeedNameFromTheServerTheQueriesAreAsTheyAlwaysWere() {
        var s = FeedState()
        XCTAssertEqual(s.nextPage(), .newest)
        XCTAssertTrue(s.belongs(nil))
        s.add(items(30, 21), hasMore: true)
        XCTAssertEqual(s.nextPage(), .before(21))
        XCTAssertTrue(s.belongs(FeedID(rawValue: "a-feed")), "the first name given is the feed's")
    }

    func testOnceTheServerNamesTheFeedEveryPageAskedForNamesIt() {
        var s = FeedState()
        _ = s.nextPage()
        XCTAssertTrue(s.belongs(f1))
        s.add(items(500, 451), hasMore: true)
        XCTAssertEqual(s.nextPage(), .before(451, feed: f1))
        XCTAssertTrue(s.belongs(f1))
        XCTAssertTrue(s.belongs(nil), "an answer that does not say is not another feed")
        XCTAssertFalse(s.belongs(f2), "another feed: start over")
    }

    func testStartingOverForgetsTheFeedItsNameTooAndMakesWhatWasAskedBeforeStale() {
        var s = loaded(50)
        _ = s.belongs(FeedID(rawValue: "old"))
        let asked = s.generation
        s.reset()
        XCTAssertNotEqual(s.generation, asked)
        XCTAssertEqual(s.items.count, 0)
        XCTAssertEqual(s.nextPage(), .newest, "the newest page, asked for without a name")
        XCTAssertTrue(s.belongs(FeedID(rawValue: "new")))
        s.add(items(5, 1), hasMore: false)
        XCTAssertEqual(s.end, .end)
    }

    func testAGapIsTheSameFeedItsNameStaysAndNothingAskedBeforeIsStale() {
        var s = loaded(50)
        _ = s.belongs(f1)
        let asked = s.generation
        _ = s.beginRefresh()
        _ = s.refreshed(items(90, 81), gap: true)
        XCTAssertEqual(s.generation, asked)
        XCTAssertEqual(s.nextPage(), .before(81, feed: f1))
    }

    func testARowNearTheEndAppearingAsksForTheNextPageOnce() {
        var s = FeedState(prefetch: 3)
        _ = s.nextPage()
        s.add(items(30, 21), hasMore: true)
        XCTAssertNil(s.appeared(25), "further than 3 rows from the end")
        XCTAssertEqual(s.appeared(23), .before(21))
        XCTAssertNil(s.appeared(21), "one page at a time")
        s.add(items(20, 11), hasMore: false)
        XCTAssertNil(s.appeared(11), "no more items")
        XCTAssertNil(s.appeared(99), "not a row of this feed")
    }
}

/// Items `from` down to `to`, as the API's pages give them (newest first).
func items(_ from: Int64, _ to: Int64) -> [Item] {
    stride(from: from, through: to, by: -1).map { id in
        Item(id: id, title: "item \(id)", createdAt: Date(timeIntervalSince1970: TimeInterval(id) * 3600))
    }
}

private func ids(_ s: FeedState) -> [Int64] { s.items.map(\.id) }

/// A feed of `n` items loaded page by page, as a list does.
private func loaded(_ n: Int64) -> FeedState {
    var s = FeedState()
    while Int64(s.items.count) < n {
        guard let query = s.nextPage() else { break }
        let top: Int64
        if case .before(let id) = query.cursor { top = id - 1 } else { top = n }
        s.add(items(top, max(1, top - 9)), hasMore: top - 9 > 1)
    }
    return s
}

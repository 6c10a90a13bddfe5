import XCTest
@testable import PulldownDoctor

/// For each rule, a client that makes its mistake: exactly that rule fires, once per occurrence,
/// and no other.
final class RuleTests: XCTestCase {
    private func client(items: Int64 = 35) -> ScriptedClient {
        ScriptedClient(feed: FakeFeed(newest: items))
    }

    func testRetryTooSoonFiresForEachRetryBeforeRetryAfterRanOut() {
        var c = client()
        c.send(.newest)
        c.send(.before(26), status: 503, retryAfter: 1)
        c.send(.before(26), status: 503, retryAfter: 1, pause: 0.2)
        c.send(.before(26), pause: 0.9)
        XCTAssertEqual(c.fired, ["retry-too-soon", "retry-too-soon"])
    }

    func testRetryTooSoonIsTheSameRequestOnlyAndEndsWithItsWait() {
        var c = client()
        c.send(.refresh(after: 35), status: 429, retryAfter: 2)
        c.send(.newest, pause: 0.1)                  // another request: no retry
        c.send(.refresh(after: 30), pause: 2.0)      // the same refresh, after the wait
        c.send(.item(3), status: 503)                // no Retry-After: nothing to wait for
        c.send(.item(3), status: 200, pause: 1.5)
        XCTAssertEqual(c.fired, [])
    }

    func testPastTheEndFiresForEachEmptyPageAskedAfterHasMoreFalse() {
        var c = client(items: 15)
        c.send(.newest)
        c.send(.before(6))                    // 5 items, hasMore false
        c.send(.before(1))                    // nothing older: past the end
        c.send(.before(1), pause: 2)
        XCTAssertEqual(c.fired, ["past-the-end", "past-the-end"])
    }

    func testPastTheEndAfterAShortNewestPage() {
        var c = client(items: 4)
        c.send(.newest)                       // all 4, hasMore false
        c.send(.before(1))
        XCTAssertEqual(c.fired, ["past-the-end"])
    }

    func testReadingBackItemsAfterTheEndIsNoMistake() {
        var c = client(items: 15)
        c.send(.newest)
        c.send(.before(6))
        c.send(.before(12, limit: 50), pause: 3)   // a window reading its text again
        XCTAssertEqual(c.fired, [])
    }

    func testShortPageStopFiresWhenARefreshComesInsteadOfThePageAfterAShortOne() {
        var c = client()
        c.feed.deleted = [20, 21, 23]             // their places stay, left out of pages
        c.send(.newest)
        c.send(.before(26))                       // 25...16: 7 items of 10, hasMore, next before=16
        c.send(.refresh(after: 35), pause: 5)     // back at the top: it took the short page for the end
        c.send(.refresh(after: 35), pause: 5)     // once per short page
        c.send(.before(16), pause: 5)             // on at last, a full page
        XCTAssertEqual(c.fired, ["short-page-stop"])
    }

    func testShortPageStopFiresForTheNewestPageAgainOrAfterItsTop() {
        var c = client()
        c.feed.shortPages = true                  // every page reads half its limit
        c.send(.newest)                           // 35...31, next before=31
        c.send(.newest, validator: true, pause: 5)
        c.send(.before(31), pause: 5)             // 30...26
        c.send(.after(35), pause: 5)              // what is newer than its top
        c.send(.before(26), pause: 5)
        XCTAssertEqual(c.fired, ["short-page-stop", "short-page-stop"])
    }

    func testGoingOnFromShortPagesAndReadingItemsBackIsNoMistake() {
        var c = client()
        c.feed.shortPages = true
        c.feed.deleted = [21, 22, 23, 24, 25, 28]
        c.send(.newest)                           // 35...31, short
        c.send(.before(31))                       // 30...26 less 28: 4 items
        c.send(.before(33, limit: 50), pause: 2)  // a window reading back what it let go, either way
        c.send(.after(27, limit: 50), pause: 2)
        c.send(.before(26), pause: 2)             // 25...21, all deleted: no item, and more to come
        for before: Int64 in [21, 16, 11, 6] { c.send(.before(before), pause: 2) }   // to hasMore: false
        c.send(.refresh(after: 35), pause: 5)
        c.send(.newest, validator: true, pause: 5)
        XCTAssertEqual(c.fired, [])
    }

    func testIgnoredGapFiresForARefreshAfterTheNewTop() {
        var c = client()
        c.send(.newest)
        c.send(.before(26))
        c.feed.newest = 60
        c.send(.refresh(after: 35), pause: 2)     // 25 new, 10 given: gap
        c.send(.refresh(after: 60), pause: 2)
        XCTAssertEqual(c.fired, ["ignored-gap"])
    }

    func testIgnoredGapFiresForARefreshFromTheSessionsLastSeenID() {
        var c = client()
        c.send(.newest)
        c.feed.newest = 60
        c.send(.refresh(after: nil), pause: 2)
        c.send(.refresh(after: nil), pause: 2)
        XCTAssertEqual(c.fired, ["ignored-gap"])
    }

    func testIgnoredGapFiresForGoingOnBelowTheHole() {
        var c = client()
        c.send(.newest)
        c.send(.before(26))
        c.feed.newest = 60
        c.send(.refresh(after: 35), pause: 2)
        c.send(.before(16), pause: 1)             // the old list's next page
        XCTAssertEqual(c.fired, ["ignored-gap"])
    }

    func testFillingTheHoleOrStartingOverIsNoMistake() {
        for next: ObservedRequest.Ask in [.before(51), .before(45, limit: 50), .after(35), .newest] {
            var c = client()
            c.send(.newest)
            c.feed.newest = 60
            c.send(.refresh(after: 35), pause: 2)
            c.send(next, validator: next == .newest, pause: 1)
            c.send(.refresh(after: 60), pause: 2)
            XCTAssertEqual(c.fired, [], "\(next)")
        }
    }

    func testStaleAfterChangeFiresForARefreshThatDoesNotAskForTheEditsMade() {
        var c = client()
        c.send(.newest)                           // reflects 35
        c.feed.edits = [36, 37]                   // two items it holds changed
        c.send(.refresh(after: 35), pause: 2)     // nothing new, and nothing said of the edits
        c.send(.refresh(after: 35, changes: 35), pause: 2)
        c.send(.refresh(after: 35, changes: 37), pause: 2)
        XCTAssertEqual(c.fired, ["stale-after-change"])
    }

    func testStaleAfterChangeIsNotCalledWhereInsertsExplainTheSequenceOrAStreamTellsOfChanges() {
        var c = client()
        c.send(.newest)
        c.feed.newest = 38                        // only inserts since
        c.send(.refresh(after: 35), pause: 2)
        var listening = client()
        listening.send(.newest)
        listening.send(.stream(lastEventID: nil, after: 35))   // edits arrive as `updated` and `deleted` events
        listening.feed.edits = [36]
        listening.send(.refresh(after: 35), pause: 2)
        XCTAssertEqual(c.fired + listening.fired, [])
    }

    func testRefetchAllPagesFiresForEachHeldPageAskedAfterARefresh() {
        var c = client()
        c.send(.newest)
        c.send(.before(26))
        c.send(.before(16))
        c.send(.refresh(after: 35), pause: 2)
        c.send(.before(26))
        c.send(.before(16))
        c.send(.before(6))                        // on below what it held: no more
        XCTAssertEqual(c.fired, ["refetch-all-pages", "refetch-all-pages"])
    }

    func testRefetchAllPagesWhenTheRefreshIsTheNewestPageAgain() {
        var c = client()
        c.send(.newest)
        c.send(.before(26))
        c.feed.newest = 37
        c.send(.newest, validator: true, status: 200, pause: 2)   // changed: 200, its next page is before=28
        c.send(.before(28))                                        // held: 35...16
        c.send(.before(18))
        c.send(.before(16))                                        // on below
        XCTAssertEqual(c.fired, ["refetch-all-pages", "refetch-all-pages"])
    }

    func testFirstPageOnLoadMoreFiresForEachLoadMoreThatAsksTheNewestPageToo() {
        var c = client()
        c.send(.newest)
        c.send(.newest, validator: true, pause: 2)
        c.send(.before(26))
        c.send(.newest, validator: true, pause: 2)
        c.send(.before(16))
        XCTAssertEqual(c.fired, ["first-page-on-load-more", "first-page-on-load-more"])
    }

    func testFirstPageOnLoadMoreInEitherOrder() {
        var c = client()
        c.send(.newest)
        c.send(.before(26), pause: 2)
        c.send(.newest, validator: true)
        XCTAssertEqual(c.fired, ["first-page-on-load-more"])
    }

    func testDuplicateRequestFiresForEachSecondAskInFlightOrWithinASecond() {
        var c = client()
        c.send(.newest)
        c.sendTogether(.before(26), .before(26))
        c.send(.before(16), pause: 0.5)
        c.send(.before(16), pause: 0.5)
        c.sendTogether(.refresh(after: 35), .refresh(after: 35), pause: 2)
        XCTAssertEqual(c.fired, ["duplicate-request", "duplicate-request", "duplicate-request"])
    }

    func testAskingAgainLaterOrAfterAFailureIsNoDuplicate() {
        var c = client()
        c.send(.newest)
        c.send(.before(26))
        c.send(.before(26), pause: 1.5)
        c.send(.item(4), status: 500)
        c.send(.item(4), pause: 0.1)
        c.send(.refresh(after: 35), pause: 2)
        c.send(.refresh(after: 35), pause: 0.3)    // the reader pulled again
        c.send(.after(0, limit: 50), pause: 2)
        c.send(.after(0, limit: 50), validator: true, status: 304, pause: 0.3)   // a reload revalidates it
        XCTAssertEqual(c.fired, [])
    }

    func testReconnectWithoutLastEventIDFiresForEachReopenWithoutACursor() {
        var c = client()
        c.send(.stream, takes: 5)
        c.send(.stream, pause: 1, takes: 5)
        c.send(.stream, pause: 1, takes: 5)
        XCTAssertEqual(c.fired, ["reconnect-without-last-event-id", "reconnect-without-last-event-id"])
    }

    func testStreamWithoutCursorFiresWhenTheClientHoldsItems() {
        var c = client()
        c.send(.newest)
        c.send(.stream)
        XCTAssertEqual(c.fired, ["stream-without-cursor"])
    }

    func testPollWithoutValidatorFiresForEachUnvalidatedPoll() {
        var c = client()
        c.send(.newest)
        c.send(.newest, pause: 2)
        c.send(.newest, pause: 2)
        XCTAssertEqual(c.fired, ["poll-without-validator", "poll-without-validator"])
    }

    func testANewFeedStartsEverythingOver() {
        var c = client(items: 15)
        c.send(.newest)
        c.send(.before(6))
        c.feed = FakeFeed(newest: 40, id: 0xbeef)     // reset: a new feed with other ids
        c.send(.newest, pause: 1)
        c.send(.before(31))
        c.send(.stream(lastEventID: nil, after: 40))
        XCTAssertEqual(c.fired, [])
    }
}

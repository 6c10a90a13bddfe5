import PulldownClient
import XCTest

/// Every case of Tests/js/live-state.test.mjs: the pill counts as the page's does.
final class LiveStateTests: XCTestCase {
    private func pill(_ count: Int, _ more: Bool = false) -> LiveState.Pill { LiveState.Pill(count: count, more: more) }

    /// A pill state for a feed that shows up to `newest`.
    private func live(_ newest: Int64) -> LiveState {
        var s = LiveState()
        _ = s.shown(newest)
        return s
    }

    func testItemsArrivingInSeveralEventsAreCountedOnceEach() {
        var s = LiveState()
        XCTAssertEqual(s.shown(50), pill(0))
        XCTAssertEqual(s.arrived(ids: [51], gap: false), pill(1))
        XCTAssertEqual(s.arrived(ids: [53, 52], gap: false), pill(3))
        XCTAssertEqual(s.arrived(ids: [53, 52, 51], gap: false), pill(3), "a reconnect that sends them again")
    }

    func testItemsTheFeedAlreadyShowsAreNotNew() {
        var s = live(50)
        XCTAssertEqual(s.arrived(ids: [50, 49], gap: false), pill(0))
        XCTAssertEqual(s.arrived(ids: [52, 51, 50], gap: false), pill(2))
    }

    func testARefreshTakesWhatItBroughtInOffThePillAndHidesItWhenItBroughtEverything() {
        var s = live(50)
        _ = s.arrived(ids: [54, 53, 52, 51], gap: false)
        XCTAssertEqual(s.shown(52), pill(2), "a refresh that ended at 52: 53 and 54 still wait")
        XCTAssertEqual(s.shown(54), pill(0))
        XCTAssertEqual(s.arrived(ids: [55], gap: false), pill(1))
        XCTAssertEqual(s.shown(60), pill(0))
        XCTAssertEqual(s.arrived(ids: [55], gap: false), pill(0), "an event that lost the race to the refresh")
    }

    func testAGapSaysMoreThanTheCountUntilARefreshReachesIntoIt() {
        var s = live(2)
        XCTAssertEqual(s.arrived(ids: Array((13...22).reversed()), gap: true), pill(10, true))
        XCTAssertEqual(s.arrived(ids: [23], gap: false), pill(11, true))
        XCTAssertEqual(s.shown(12), pill(11, true), "a refresh that ended below the gap's items")
        XCTAssertEqual(s.shown(13), pill(10))
        XCTAssertEqual(s.shown(23), pill(0))
    }

    func testAnEmptyGapEventChangesNothing() {
        var s = live(5)
        XCTAssertEqual(s.arrived(ids: [], gap: true), pill(0))
    }

    func testABurstOfEventsIsAnnouncedOnceWithTheLastCountTheSameCountNeverTwice() {
        var s = live(50)
        _ = s.arrived(ids: [51], gap: false)
        _ = s.arrived(ids: [52], gap: false)
        _ = s.arrived(ids: [53], gap: false)
        XCTAssertEqual(s.announce(), pill(3))
        XCTAssertNil(s.announce())
        _ = s.arrived(ids: [53, 52], gap: false)
        XCTAssertNil(s.announce(), "nothing new: nothing to say")
        _ = s.arrived(ids: Array((54...62).reversed()), gap: true)
        XCTAssertEqual(s.announce(), pill(12, true))
    }

    func testAGapThatAddsNoIdIsStillNewsTheCountBecameMoreThan() {
        var s = live(50)
        _ = s.arrived(ids: [52, 51], gap: false)
        XCTAssertEqual(s.announce(), pill(2))
        _ = s.arrived(ids: [52, 51], gap: true)
        XCTAssertEqual(s.announce(), pill(2, true))
    }

    func testAfterARefreshEmptiesThePillNothingIsSaidAndTheNextNewItemIsSaidAgain() {
        var s = live(50)
        _ = s.arrived(ids: [51], gap: false)
        XCTAssertEqual(s.announce(), pill(1))
        _ = s.shown(51)
        XCTAssertNil(s.announce(), "the refresh announces its own result")
        _ = s.arrived(ids: [52], gap: false)
        XCTAssertEqual(s.announce(), pill(1))
    }

    func testANewStreamStartsAfterEverythingTheFeedHasShownOrWaiting() {
        var s = LiveState()
        XCTAssertEqual(s.opening, 0, "an empty feed: from the start")
        _ = s.shown(50)
        XCTAssertEqual(s.opening, 50, "the newest item the feed shows")
        _ = s.arrived(ids: [53, 52, 51], gap: false)
        XCTAssertEqual(s.opening, 53, "a reopened stream sends only what came meanwhile")
        _ = s.arrived(ids: [49], gap: false)
        XCTAssertEqual(s.opening, 53, "never backwards")
        _ = s.shown(60)
        XCTAssertEqual(s.opening, 60)
    }

    func testARefusedStreamIsRetriedAfter5sDoublingToAMinuteWithUpToHalfAgainAtRandom() {
        XCTAssertEqual(LiveState.retryDelay(attempt: 0, random: 0), .seconds(5))
        XCTAssertEqual(LiveState.retryDelay(attempt: 1, random: 0), .seconds(10))
        XCTAssertEqual(LiveState.retryDelay(attempt: 3, random: 0), .seconds(40))
        XCTAssertEqual(LiveState.retryDelay(attempt: 4, random: 0), .seconds(60))
        XCTAssertEqual(LiveState.retryDelay(attempt: 30, random: 0), .seconds(60))
        XCTAssertEqual(LiveState.retryDelay(attempt: 0, random: 1), .milliseconds(7_500))
        XCTAssertEqual(LiveState.retryDelay(attempt: 30, random: 1), .seconds(90))
    }

    func testARetryAfterReplacesTheFiveSeconds() {
        XCTAssertEqual(LiveState.retryDelay(attempt: 0, base: .seconds(1), random: 0), .seconds(1))
        XCTAssertEqual(LiveState.retryDelay(attempt: 2, base: .seconds(1), random: 0), .seconds(4))
    }
}

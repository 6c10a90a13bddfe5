import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// The feed's own generator timer: items appear when due while watched, and never unwatched.
final class DemoGeneratorTimerTests: XCTestCase {
    func testWatchedItAddsTheItemsThatAreDue() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 1)
        XCTAssertEqual(try feed.seedIfEmpty(count: 3), 3)
        let inserted = expectation(description: "a generated insert")
        inserted.assertForOverFulfill = false
        feed.observeInserts { _ in inserted.fulfill() }
        clock.advance(by: 2)
        let timer = DemoGeneratorTimer(feed: feed, whileWatched: { true }, onError: { XCTFail("\($0)") })
        defer { timer.cancel() }
        wait(for: [inserted], timeout: 30)
        XCTAssertGreaterThan(try XCTUnwrap(feed.newestID()), 3)
    }

    func testTurnedOnWhileRunningItStartsAdding() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        XCTAssertEqual(try feed.seedIfEmpty(count: 3), 3)
        let timer = DemoGeneratorTimer(feed: feed, whileWatched: { true }, onError: { XCTFail("\($0)") })
        defer { timer.cancel() }
        let inserted = expectation(description: "a generated insert")
        inserted.assertForOverFulfill = false
        feed.observeInserts { _ in inserted.fulfill() }
        clock.advance(by: 3600)
        feed.newItemsEvery = 1
        wait(for: [inserted], timeout: 30)
        XCTAssertGreaterThan(try XCTUnwrap(feed.newestID()), 3)
    }

    func testUnwatchedItAddsNothingHoweverLongItHasBeen() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 1)
        XCTAssertEqual(try feed.seedIfEmpty(count: 3), 3)
        clock.advance(by: 3600)
        let asked = expectation(description: "the timer asked twice whether anyone watches")
        asked.expectedFulfillmentCount = 2
        asked.assertForOverFulfill = false
        let timer = DemoGeneratorTimer(feed: feed, whileWatched: { asked.fulfill(); return false },
                                       onError: { XCTFail("\($0)") })
        defer { timer.cancel() }
        wait(for: [asked], timeout: 30)
        XCTAssertEqual(try feed.newestID(), 3)
    }

    func testAFailedGenerationIsReported() throws {
        let clock = ManualClock(testNow)
        let store = try SQLiteStore(path: ":memory:")
        let feed = makeFeed(store: store, clock: clock, newItemsEvery: 1)
        XCTAssertEqual(try feed.seedIfEmpty(count: 3), 3)
        clock.advance(by: 2)
        try store.withWriter { try $0.execute("DROP TABLE items") }
        let reported = expectation(description: "the error reached onError")
        reported.assertForOverFulfill = false
        let timer = DemoGeneratorTimer(feed: feed, whileWatched: { true }, onError: { _ in reported.fulfill() })
        defer { timer.cancel() }
        wait(for: [reported], timeout: 30)
    }
}

import Foundation
import XCTest
@testable import PulldownFeed

/// The demo knobs that instances on one PostgreSQL database share (`SharedDemoKnobs`).
final class PostgresDemoKnobsTests: XCTestCase {
    private let flags = ["delayMs": 100.0, "failRate": 0.5]

    func testTheFirstInstanceStartsTheKnobsFromItsFlagsAndAJoinerTakesThem() throws {
        let url = try PostgresBackend.makeDatabase(self)
        let first = try PostgresStore(url: url, poolSize: 2)
        let joined = try first.join(with: flags)
        XCTAssertEqual(joined.othersRunning, 0)
        XCTAssertEqual(joined.state.values, flags)
        XCTAssertEqual(joined.state.startValues, flags)

        let second = try PostgresStore(url: url, poolSize: 2)
        let other = try second.join(with: ["delayMs": 7, "failRate": 0, "newKnob": 3])
        XCTAssertEqual(other.othersRunning, 1)
        XCTAssertEqual(other.state.values, flags.merging(["newKnob": 3]) { old, _ in old },
                       "the running knobs hold; only a knob they lack starts at the joiner's value")
        XCTAssertEqual(other.state.revision, joined.state.revision, "joining changed no knob anyone had")
    }

    func testAChangeIsMergedIntoTheStoredKnobsAndHeardByTheOtherInstance() throws {
        let url = try PostgresBackend.makeDatabase(self)
        let first = try PostgresStore(url: url, poolSize: 2)
        let second = try PostgresStore(url: url, poolSize: 2)
        let start = try first.join(with: flags).state
        _ = try second.join(with: [:])
        let heard = expectation(description: "the first instance hears of the change")
        heard.assertForOverFulfill = false  // a reconnect says "read again" too
        first.observeKnobChanges { heard.fulfill() }

        let changed = try second.changeKnobs { stored in
            XCTAssertEqual(stored.values, self.flags, "built on what is stored")
            return ["delayMs": 2500]
        }
        XCTAssertEqual(changed.values, ["delayMs": 2500, "failRate": 0.5])
        XCTAssertEqual(changed.startValues, flags, "a change keeps the start values")
        XCTAssertGreaterThan(changed.revision, start.revision)
        wait(for: [heard], timeout: 10)
        XCTAssertEqual(try first.readKnobs(), changed)
    }

    func testOnceEveryInstanceStoppedTheNextStartsFromItsOwnFlags() throws {
        let url = try PostgresBackend.makeDatabase(self)
        var first: PostgresStore? = try PostgresStore(url: url, poolSize: 2)
        _ = try first?.join(with: flags)
        _ = try first?.changeKnobs { _ in ["delayMs": 9] }
        first = nil
        let next = try PostgresStore(url: url, poolSize: 2)
        // The stopped listener closes its connection within one poll interval, and the server
        // then lets go of its running lock: no event tells this process when.
        try waitFor("the stopped instance's running lock is released", timeout: 10) {
            try next.inTransaction { try next.otherInstancesRunning(on: $0) } == 0
        }
        let joined = try next.join(with: ["delayMs": 1])
        XCTAssertEqual(joined.othersRunning, 0)
        XCTAssertEqual(joined.state.values, ["delayMs": 1], "a past run's knobs are gone")
    }
}

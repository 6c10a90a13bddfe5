import XCTest
@testable import PulldownHTTP

/// The stop's steps at chosen times, without a server.
final class StopStateTests: XCTestCase {
    private let start = ContinuousClock.now

    func testNothingInFlightStopsAtOnce() {
        var stop = StopState(gracePeriod: .milliseconds(600))
        XCTAssertEqual(stop.begin(now: start), .stopAccepting)
        XCTAssertEqual(stop.step(now: start, inFlight: 0), .answerWaiting)
        XCTAssertEqual(stop.step(now: start, inFlight: 0), .stopThreads)
        XCTAssertEqual(stop.phase, .stopped)
        XCTAssertEqual(stop.step(now: start, inFlight: 0), .none)
    }

    func testInFlightRequestsGetTheGracePeriodThenTheWaitingAreAnswered() {
        var stop = StopState(gracePeriod: .milliseconds(600), flushPeriod: .milliseconds(200))
        _ = stop.begin(now: start)
        XCTAssertEqual(stop.step(now: start + .milliseconds(599), inFlight: 3), .wait)
        XCTAssertEqual(stop.step(now: start + .milliseconds(600), inFlight: 3), .answerWaiting)
        // The answers get the flush period to go out, then the threads stop regardless.
        XCTAssertEqual(stop.step(now: start + .milliseconds(799), inFlight: 1), .wait)
        XCTAssertEqual(stop.step(now: start + .milliseconds(800), inFlight: 1), .stopThreads)
    }

    func testAWaitLastsAtMostUntilItsPhasesDeadline() {
        var stop = StopState(gracePeriod: .milliseconds(600), flushPeriod: .milliseconds(200))
        XCTAssertNil(stop.deadline, "running: nothing to wait for")
        _ = stop.begin(now: start)
        XCTAssertEqual(stop.deadline, start + .milliseconds(600))
        XCTAssertEqual(stop.step(now: start + .milliseconds(650), inFlight: 1), .answerWaiting)
        XCTAssertEqual(stop.deadline, start + .milliseconds(850), "the flush counts from when it began")
        XCTAssertEqual(stop.step(now: start + .milliseconds(700), inFlight: 0), .stopThreads)
        XCTAssertNil(stop.deadline)
    }

    func testRequestsFinishingWithinTheGracePeriodEndItEarly() {
        var stop = StopState(gracePeriod: .seconds(10))
        _ = stop.begin(now: start)
        XCTAssertEqual(stop.step(now: start + .milliseconds(5), inFlight: 1), .wait)
        XCTAssertEqual(stop.step(now: start + .milliseconds(6), inFlight: 0), .answerWaiting)
        XCTAssertEqual(stop.step(now: start + .milliseconds(7), inFlight: 0), .stopThreads)
    }

    func testASecondStopDoesNothing() {
        var stop = StopState(gracePeriod: .milliseconds(600))
        XCTAssertEqual(stop.begin(now: start), .stopAccepting)
        XCTAssertEqual(stop.begin(now: start), .none)
    }
}

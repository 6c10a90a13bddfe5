import XCTest
@testable import PulldownHTTP

/// A paced body without a server or a timer: the clock is a number the test moves.
final class PacingStateTests: XCTestCase {
    private let start = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    /// Runs the machine as `PacedBody` does, waking exactly when told (plus `lateBy`); each
    /// write as (milliseconds after the start, range).
    private func drive(_ state: inout PacingState, lateBy: Duration = .zero) -> [(Int, Range<Int>)] {
        var now = start
        var writes: [(Int, Range<Int>)] = []
        for _ in 0..<100_000 {
            switch state.next(now: now) {
            case .write(let range):
                writes.append((Int(((now - start) / .milliseconds(1)).rounded()), range))
            case .wait(let until):
                XCTAssertGreaterThan(until, now, "a wait is always for later")
                now = until + lateBy
            case .finish:
                return writes
            }
        }
        XCTFail("never finished")
        return writes
    }

    func testABodyArrivesAtItsBandwidthInTenthOfASecondSlices() {
        var state = PacingState(length: 100_000, pacing: Pacing(bytesPerSecond: 50_000), start: start)
        XCTAssertEqual(state.next(now: start), .wait(until: at(100)), "the head goes out alone; the first slice once it has arrived")
        let writes = drive(&state)
        XCTAssertEqual(writes.count, 20)
        XCTAssertEqual(writes.map(\.0), (1...20).map { $0 * 100 })
        XCTAssertTrue(writes.allSatisfy { $0.1.count == 5_000 })
        XCTAssertEqual(writes.last?.1.upperBound, 100_000)
        XCTAssertEqual(state.next(now: at(5_000)), .finish)
    }

    func testSlicesFollowEachOtherWithoutGapOrOverlap() {
        var state = PacingState(length: 12_345, pacing: Pacing(bytesPerSecond: 7_000), start: start)
        let ranges = drive(&state).map(\.1)
        XCTAssertEqual(ranges.first?.lowerBound, 0)
        XCTAssertEqual(ranges.last?.upperBound, 12_345)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) {
            XCTAssertEqual(earlier.upperBound, later.lowerBound)
        }
    }

    func testAWakeBeforeTheSliceHasArrivedWaitsForTheSameInstant() {
        var state = PacingState(length: 10_000, pacing: Pacing(bytesPerSecond: 10_000), start: start)
        XCTAssertEqual(state.next(now: start), .wait(until: at(100)))
        XCTAssertEqual(state.next(now: at(99)), .wait(until: at(100)))
        XCTAssertEqual(state.sent, 0)
    }

    func testALateWakeSendsEverythingDueAndTheRestKeepsTheOriginalSchedule() {
        var state = PacingState(length: 100_000, pacing: Pacing(bytesPerSecond: 50_000), start: start)
        XCTAssertEqual(state.next(now: at(1_000)), .write(0..<50_000), "a second late: a second's worth at once")
        XCTAssertEqual(state.next(now: at(1_000)), .wait(until: at(1_100)))
        // Waking 30 ms late every time still ends 30 ms after the schedule, not 20 x 30 ms.
        var late = PacingState(length: 100_000, pacing: Pacing(bytesPerSecond: 50_000), start: start)
        XCTAssertEqual(drive(&late, lateBy: .milliseconds(30)).last?.0, 2_030)
    }

    func testAStallPausesAfterItsShareOfTheBody() {
        var state = PacingState(length: 10_000, pacing: Pacing(bytesPerSecond: 10_000, stall: .milliseconds(500), stallAfter: 0.5),
                                start: start)
        XCTAssertEqual(state.stallPoint, 5_000)
        let writes = drive(&state)
        XCTAssertEqual(writes.map(\.1.count), Array(repeating: 1_000, count: 10))
        // Half the body in its half second, then the pause, then the other half.
        XCTAssertEqual(writes.map(\.0), [100, 200, 300, 400, 500, 1_100, 1_200, 1_300, 1_400, 1_500])
        XCTAssertEqual(writes[4].1.upperBound, 5_000)
    }

    func testAStallAtTheStartHoldsTheWholeBodyBackAfterTheHead() {
        var state = PacingState(length: 3_000, pacing: Pacing(stall: .milliseconds(800), stallAfter: 0), start: start)
        XCTAssertEqual(state.next(now: start), .wait(until: at(800)))
        XCTAssertEqual(state.next(now: at(800)), .write(0..<3_000))
        XCTAssertEqual(state.next(now: at(800)), .finish)
    }

    func testWithoutABandwidthAStallSendsTheFirstPartAtOnceAndTheRestAfterThePause() {
        var state = PacingState(length: 1_000, pacing: Pacing(stall: .seconds(2), stallAfter: 0.3), start: start)
        XCTAssertEqual(state.next(now: start), .write(0..<300))
        XCTAssertEqual(state.next(now: start), .wait(until: at(2_000)))
        XCTAssertEqual(state.next(now: at(2_000)), .write(300..<1_000))
    }

    func testALateWakeCatchesUpAcrossThePause() {
        var state = PacingState(length: 10_000, pacing: Pacing(bytesPerSecond: 10_000, stall: .milliseconds(500), stallAfter: 0.5),
                                start: start)
        XCTAssertEqual(state.next(now: at(700)), .write(0..<5_000), "in the pause: only up to the stall point")
        XCTAssertEqual(state.next(now: at(1_300)), .write(5_000..<8_000))
    }

    func testAStallAfterTheWholeBodyIsNoStall() {
        let state = PacingState(length: 1_000, pacing: Pacing(bytesPerSecond: 1_000, stall: .seconds(1), stallAfter: 1), start: start)
        XCTAssertNil(state.stallPoint)
        XCTAssertEqual(state.arrival(of: 1_000), at(1_000))
    }

    func testASlowLinkSendsSlicesOfAtLeast512Bytes() {
        var state = PacingState(length: 2_048, pacing: Pacing(bytesPerSecond: 1_000), start: start)
        XCTAssertEqual(state.sliceBytes, 512)
        XCTAssertEqual(drive(&state).map(\.0), [512, 1_024, 1_536, 2_048])
    }

    func testAnEmptyBodyFinishesAtOnce() {
        var state = PacingState(length: 0, pacing: Pacing(bytesPerSecond: 1_000), start: start)
        XCTAssertEqual(state.next(now: start), .finish)
    }

    func testNoBandwidthAndNoStallIsNoPacing() {
        XCTAssertTrue(Pacing().isNone)
        XCTAssertTrue(Pacing(bytesPerSecond: -5).isNone)
        XCTAssertFalse(Pacing(bytesPerSecond: 1).isNone)
        XCTAssertFalse(Pacing(stall: .milliseconds(1)).isNone)
        XCTAssertEqual(Pacing(stallAfter: 7).stallAfter, 1)
    }
}

import Glibc
import XCTest
@testable import PulldownHTTP

final class AcceptLoopStateTests: XCTestCase {
    func testAcceptsUntilTheLimitThenWaitsForAClose() {
        var state = AcceptLoopState(limit: 2)
        XCTAssertEqual(state.nextStep(), .accept)
        state.accepted()
        XCTAssertEqual(state.nextStep(), .accept)
        state.accepted()
        XCTAssertEqual(state.nextStep(), .waitForClose)
        XCTAssertTrue(state.waitingForClose)
    }

    func testTheCloseThatFreesASlotWakesTheWaitingLoopOnce() {
        var state = AcceptLoopState(limit: 1)
        state.accepted()
        XCTAssertEqual(state.nextStep(), .waitForClose)
        XCTAssertTrue(state.closed(), "the loop waits for this close")
        XCTAssertEqual(state.nextStep(), .accept)
        state.accepted()
        XCTAssertFalse(state.closed(), "nobody waits for this one: no wake-up")
    }

    func testAClosedConnectionIsNotAWakeUpWhileTheLoopIsNotWaiting() {
        var state = AcceptLoopState(limit: 3)
        state.accepted()
        state.accepted()
        XCTAssertFalse(state.closed())
        XCTAssertEqual(state.open, 1)
    }

    func testAClientThatLeftBeforeItWasAcceptedIsNotAnError() {
        var state = AcceptLoopState(limit: 3)
        for error in [EAGAIN, EINTR, ECONNABORTED, EPROTO] {
            let failure = state.acceptFailed(error: error)
            XCTAssertEqual(failure.step, .accept)
            XCTAssertNil(failure.warning)
        }
    }

    func testOutOfDescriptorsItBacksOffAndSaysSoOnce() {
        var state = AcceptLoopState(limit: 3)
        let first = state.acceptFailed(error: EMFILE)
        XCTAssertEqual(first.step, .backOff(milliseconds: AcceptLoopState.backOffMilliseconds))
        XCTAssertTrue(first.warning?.contains("out of file descriptors") == true, first.warning ?? "no warning")
        let again = state.acceptFailed(error: ENFILE)
        XCTAssertEqual(again.step, .backOff(milliseconds: AcceptLoopState.backOffMilliseconds))
        XCTAssertNil(again.warning)
        XCTAssertEqual(state.acceptFailed(error: ENOBUFS).step, .backOff(milliseconds: AcceptLoopState.backOffMilliseconds))
    }
}

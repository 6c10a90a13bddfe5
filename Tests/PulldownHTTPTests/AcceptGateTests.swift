import Glibc
import XCTest
@testable import PulldownHTTP

final class AcceptGateTests: XCTestCase {
    func testAcceptsUntilTheLimitThenWaitsForAClose() {
        var gate = AcceptGate(limit: 2)
        XCTAssertEqual(gate.nextStep(), .accept)
        gate.accepted()
        XCTAssertEqual(gate.nextStep(), .accept)
        gate.accepted()
        XCTAssertEqual(gate.nextStep(), .waitForClose)
        XCTAssertTrue(gate.waitingForClose)
    }

    func testTheCloseThatFreesASlotWakesTheWaitingLoopOnce() {
        var gate = AcceptGate(limit: 1)
        gate.accepted()
        XCTAssertEqual(gate.nextStep(), .waitForClose)
        XCTAssertTrue(gate.closed(), "the loop waits for this close")
        XCTAssertEqual(gate.nextStep(), .accept)
        gate.accepted()
        XCTAssertFalse(gate.closed(), "nobody waits for this one: no wake-up")
    }

    func testAClosedConnectionIsNotAWakeUpWhileTheLoopIsNotWaiting() {
        var gate = AcceptGate(limit: 3)
        gate.accepted()
        gate.accepted()
        XCTAssertFalse(gate.closed())
        XCTAssertEqual(gate.open, 1)
    }

    func testAClientThatLeftBeforeItWasAcceptedIsNotAnError() {
        var gate = AcceptGate(limit: 3)
        for error in [EAGAIN, EINTR, ECONNABORTED, EPROTO] {
            let failure = gate.acceptFailed(error: error)
            XCTAssertEqual(failure.step, .accept)
            XCTAssertNil(failure.warning)
        }
    }

    func testOutOfDescriptorsItBacksOffAndSaysSoOnce() {
        var gate = AcceptGate(limit: 3)
        let first = gate.acceptFailed(error: EMFILE)
        XCTAssertEqual(first.step, .backOff(milliseconds: AcceptGate.backOffMilliseconds))
        XCTAssertTrue(first.warning?.contains("out of file descriptors") == true, first.warning ?? "no warning")
        let again = gate.acceptFailed(error: ENFILE)
        XCTAssertEqual(again.step, .backOff(milliseconds: AcceptGate.backOffMilliseconds))
        XCTAssertNil(again.warning)
        XCTAssertEqual(gate.acceptFailed(error: ENOBUFS).step, .backOff(milliseconds: AcceptGate.backOffMilliseconds))
    }
}

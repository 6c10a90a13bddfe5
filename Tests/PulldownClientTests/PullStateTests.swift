import PulldownClient
import XCTest

/// The cases of Tests/js/pull-state.test.mjs that a touch panel shares with the page (the wheel's
/// are the browser's own): both machines are held to the same rules.
final class PullStateTests: XCTestCase {
    private func machine(maxPull: Double = 140) -> PullState {
        PullState(threshold: 60, maxPull: maxPull, resistance: 0.5)
    }

    private func action(_ phase: PullState.Phase, _ offset: Double, animate: Bool, refresh: Bool = false) -> PullState.Action {
        PullState.Action(phase: phase, offset: offset, animate: animate, refresh: refresh)
    }

    func testStartsIdleAndClosed() {
        let m = machine()
        XCTAssertEqual(m.phase, .idle)
        XCTAssertEqual(m.offset, 0)
        XCTAssertFalse(m.isBusy)
    }

    func testADragOfZeroFromIdleChangesNothing() {
        var m = machine()
        XCTAssertNil(m.drag(0))
        XCTAssertNil(m.drag(-30))
    }

    func testDraggingUnderTheThresholdPullsWithResistanceAndDoesNotRefresh() {
        var m = machine()
        XCTAssertEqual(m.drag(100), action(.pulling, 50, animate: false))
    }

    func testCrossingTheThresholdArmsAndGoingBackUnderItDisarms() {
        var m = machine()
        _ = m.drag(40)
        XCTAssertEqual(m.drag(120)?.phase, .armed, "exactly 60 points")
        XCTAssertEqual(m.drag(119)?.phase, .pulling)
        XCTAssertEqual(m.drag(200)?.phase, .armed)
        XCTAssertEqual(m.drag(10)?.phase, .pulling)
    }

    func testThePullNeverGoesPastMaxPull() {
        var m = machine()
        XCTAssertEqual(m.drag(10_000)?.offset, 140)
        XCTAssertEqual(machine(maxPull: 20).maxPull, 60, "maxPull is at least the threshold")
    }

    func testReleasedUnderTheThresholdItSpringsBackAndRequestsNothing() {
        var m = machine()
        _ = m.drag(80)
        XCTAssertEqual(m.release(), action(.idle, 0, animate: true))
        XCTAssertEqual(m.phase, .idle)
    }

    func testReleasedWhileArmedItRefreshesWithThePanelHeldAtTheThreshold() {
        var m = machine()
        _ = m.drag(200)
        XCTAssertEqual(m.release(), action(.refreshing, 60, animate: true, refresh: true))
        XCTAssertTrue(m.isBusy)
    }

    func testReleasedAfterGoingBackUnderTheThresholdRequestsNothing() {
        var m = machine()
        _ = m.drag(200)
        _ = m.drag(60)
        XCTAssertEqual(m.release()?.refresh, false)
    }

    func testReleaseAndCancelFromIdleDoNothing() {
        var m = machine()
        XCTAssertNil(m.release())
        XCTAssertNil(m.cancel())
        XCTAssertEqual(m.phase, .idle)
    }

    func testACancelledGestureSpringsBackWithoutRefreshingEvenWhenArmed() {
        var m = machine()
        _ = m.drag(200)
        XCTAssertEqual(m.cancel(), action(.idle, 0, animate: true))
    }

    func testASecondPullWhileRefreshingDoesNothing() {
        var m = machine()
        _ = m.drag(200)
        _ = m.release()
        XCTAssertNil(m.drag(300))
        XCTAssertNil(m.release())
        XCTAssertNil(m.cancel())
        XCTAssertNil(m.begin())
        XCTAssertEqual(m.phase, .refreshing)
        XCTAssertEqual(m.offset, 60)
    }

    func testBeginRefreshesFromIdleWithoutAPull() {
        var m = machine()
        XCTAssertEqual(m.begin(), action(.refreshing, 60, animate: true, refresh: true))
    }

    func testTheEndOfARefreshSettlesThenTheSettledPanelIsIdle() {
        var m = machine()
        _ = m.begin()
        XCTAssertEqual(m.end(), action(.settling, 0, animate: true))
        XCTAssertTrue(m.isBusy)
        XCTAssertNil(m.drag(300), "no pull while settling")
        XCTAssertNil(m.begin(), "no refresh while settling")
        XCTAssertEqual(m.settled(), action(.idle, 0, animate: false))
        XCTAssertFalse(m.isBusy)
        XCTAssertEqual(m.drag(100)?.phase, .pulling, "pulls work again")
    }

    func testEndAndSettledOutsideTheirStatesDoNothing() {
        var m = machine()
        XCTAssertNil(m.end())
        XCTAssertNil(m.settled())
        _ = m.drag(50)
        XCTAssertNil(m.end())
        XCTAssertNil(m.settled())
        XCTAssertEqual(m.phase, .pulling)
    }

    func testDefaultsFollowTheSeedA60PointThreshold() {
        var m = PullState()
        XCTAssertEqual(m.threshold, 60)
        XCTAssertEqual(m.drag(m.threshold / m.resistance)?.phase, .armed)
    }
}

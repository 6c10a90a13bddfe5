import XCTest
@testable import PulldownDataFile

/// `WatchState`: when `--watch` reads the file, and that each problem is said once.
final class WatchStateTests: XCTestCase {
    private func stamp(_ size: Int64) -> WatchState.Stamp { WatchState.Stamp(size: size) }

    func testAFileIsReadOnlyWhenItsStampChanges() {
        var state = WatchState(handled: stamp(1))
        XCTAssertFalse(state.needsRead(stamp(1)))
        XCTAssertTrue(state.needsRead(stamp(2)))
        XCTAssertNil(state.read(stamp(2), .read(added: 1, problem: nil)))
        XCTAssertFalse(state.needsRead(stamp(2)))
    }

    func testADivergenceIsSaidOnceAndOnlyWhenItStays() {
        var state = WatchState(handled: stamp(1))
        XCTAssertNil(state.read(stamp(0), .diverged), "perhaps a writer emptied the file to write it again")
        XCTAssertTrue(state.needsRead(stamp(0)))
        XCTAssertEqual(state.read(stamp(0), .diverged), WatchState.divergence)
        XCTAssertFalse(state.needsRead(stamp(0)))
        _ = state.read(stamp(5), .diverged)
        XCTAssertNil(state.read(stamp(5), .diverged), "said once")
        XCTAssertNil(state.read(stamp(6), .read(added: 0, problem: nil)))
        _ = state.read(stamp(7), .diverged)
        XCTAssertEqual(state.read(stamp(7), .diverged), WatchState.divergence, "said again once it came back")
    }

    func testAProblemIsSaidOnceAndAFailedReadIsTriedAgain() {
        var state = WatchState(handled: stamp(1))
        XCTAssertEqual(state.read(stamp(2), .read(added: 0, problem: "bad line")), "bad line")
        XCTAssertNil(state.read(stamp(3), .read(added: 0, problem: "bad line")))
        XCTAssertEqual(state.read(stamp(4), .failed("no store")), "no store")
        XCTAssertTrue(state.needsRead(stamp(4)))
    }
}

import XCTest
@testable import PulldownHTTP

/// Suspending and resuming a connection without a server, including work that arrives while
/// the connection is being suspended.
final class SuspensionTests: XCTestCase {
    func testWorkArrivingWhileSuspendedResumesOnce() {
        var suspension = Suspension()
        suspension.beginSuspending()
        XCTAssertEqual(suspension.suspended(workArrived: false), .none)
        XCTAssertEqual(suspension.phase, .suspended)
        XCTAssertEqual(suspension.workArrived(), .resume)
        XCTAssertEqual(suspension.workArrived(), .none, "one resume is enough")
        suspension.calledAgain()
        XCTAssertEqual(suspension.phase, .running)
    }

    func testWorkArrivingWhileSuspendingResumesAsSoonAsTheSuspensionIsDone() {
        var suspension = Suspension()
        suspension.beginSuspending()
        XCTAssertEqual(suspension.workArrived(), .none, "not suspended yet: nothing to resume")
        XCTAssertEqual(suspension.suspended(workArrived: true), .resume)
        XCTAssertEqual(suspension.phase, .resuming)
    }

    func testWorkArrivingWhileRunningNeedsNoResume() {
        var suspension = Suspension()
        XCTAssertEqual(suspension.workArrived(), .none)
        XCTAssertEqual(suspension.phase, .running)
    }
}

import XCTest
@testable import PulldownClient

/// When the client's event stream opens again.
final class ReconnectionTests: XCTestCase {
    private func delay(_ step: Reconnection.Step) -> Duration? {
        if case .reconnect(let after) = step { return after }
        return nil
    }

    func testADroppedStreamOpensAgainAfterTheServersRetryTime() {
        var r = Reconnection()
        XCTAssertEqual(delay(r.ended(.ended, random: 0)), .seconds(3), "before the server says")
        r.retry(milliseconds: 1000)
        XCTAssertEqual(delay(r.ended(.ended, random: 1)), .seconds(1))
        XCTAssertEqual(delay(r.ended(.ended, random: 1)), .seconds(1), "each drop the same")
    }

    func testAnUnreachableServerIsTriedAgainDoublingToAMinuteUntilAStreamOpens() {
        var r = Reconnection()
        r.retry(milliseconds: 1000)
        XCTAssertEqual((0..<8).map { _ in delay(r.ended(.unreachable, random: 0)) },
                       [1, 2, 4, 8, 16, 32, 60, 60].map { .seconds($0) })
        r.opened()
        XCTAssertEqual(delay(r.ended(.unreachable, random: 0)), .seconds(1))
    }

    func testARefusedStreamWaitsItsRetryAfterDoublingWithUpToHalfAgain() {
        var r = Reconnection()
        let busy = ProblemDetails(status: 503, retryAfter: .seconds(1))
        XCTAssertEqual(delay(r.ended(.refused(busy), random: 0)), .seconds(1))
        XCTAssertEqual(delay(r.ended(.refused(busy), random: 1)), .seconds(3))
        XCTAssertEqual(delay(r.ended(.refused(ProblemDetails(status: 503)), random: 0)), .seconds(20),
                       "without Retry-After: 5 s, the third time in a row")
    }

    func testARejectedStreamEndsWithItsError() {
        var r = Reconnection()
        let bad = ProblemDetails(status: 400, detail: "after")
        guard case .finish(let error) = r.ended(.rejected(bad), random: 0) else { return XCTFail("reconnects") }
        XCTAssertEqual(error as? ProblemDetails, bad)
    }
}

import XCTest
@testable import PulldownApp

/// One-shot faults counted off without any I/O.
final class FaultQueueTests: XCTestCase {
    private typealias Fault = FaultQueue.Fault

    func testAFaultFailsTheNextCountRequestsOfItsTargetThenNone() {
        var queue = FaultQueue()
        queue.add(Fault(on: .refresh, status: 503, count: 2))
        XCTAssertEqual(queue.take(for: .refresh)?.status, 503)
        XCTAssertEqual(queue.pending, [Fault(on: .refresh, status: 503, count: 1)])
        XCTAssertEqual(queue.take(for: .refresh)?.status, 503)
        XCTAssertEqual(queue.take(for: .refresh), nil)
        XCTAssertEqual(queue.pending, [])
    }

    func testAFaultOnOneTargetLeavesTheOthersAlone() {
        var queue = FaultQueue()
        queue.add(Fault(on: .refresh, status: 429, count: 1))
        XCTAssertEqual(queue.take(for: .page), nil)
        XCTAssertEqual(queue.take(for: .post), nil)
        XCTAssertEqual(queue.take(for: .events), nil)
        XCTAssertEqual(queue.take(for: .refresh)?.status, 429)
    }

    func testFaultsForOneTargetComeInTheOrderTheyWereQueued() {
        var queue = FaultQueue()
        queue.add(Fault(on: .page, status: 500, count: 1))
        queue.add(Fault(on: .post, status: 429, count: 1))
        queue.add(Fault(on: .page, status: 503, count: 2))
        XCTAssertEqual([queue.take(for: .page)?.status, queue.take(for: .page)?.status, queue.take(for: .page)?.status, queue.take(for: .page)?.status],
                       [500, 503, 503, nil])
        XCTAssertEqual(queue.pending, [Fault(on: .post, status: 429, count: 1)])
    }

    func testClearForgetsEveryFaultAndAnEmptyFaultIsNeverQueued() {
        var queue = FaultQueue()
        queue.add(Fault(on: .page, status: 500, count: 0))
        XCTAssertEqual(queue.pending, [])
        queue.add(Fault(on: .events, status: 503, count: 3))
        queue.clear()
        XCTAssertEqual(queue.take(for: .events), nil)
    }

    func testTheTargetsAreTheRequestsTheyName() {
        XCTAssertEqual(FaultQueue.Target(method: "POST", path: "/api/refresh"), .refresh)
        XCTAssertEqual(FaultQueue.Target(method: "GET", path: "/api/items"), .page)
        XCTAssertEqual(FaultQueue.Target(method: "HEAD", path: "/api/items"), .page)
        XCTAssertEqual(FaultQueue.Target(method: "POST", path: "/api/items"), .post)
        XCTAssertEqual(FaultQueue.Target(method: "GET", path: "/api/events"), .events)
        XCTAssertNil(FaultQueue.Target(method: "GET", path: "/api/items/3"))
        XCTAssertNil(FaultQueue.Target(method: "GET", path: "/api/session"))
        XCTAssertNil(FaultQueue.Target(method: "GET", path: "/api/refresh"))
    }
}

@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

final class DemoKnobsTests: XCTestCase {
    private func request(_ target: String) -> HTTPRequest {
        HTTPRequest(method: "GET", rawTarget: target)!
    }

    private func refusal(_ knobs: DemoKnobs, _ target: String, file: StaticString = #filePath, line: UInt = #line) -> Problem? {
        do {
            _ = try knobs.plan(for: request(target))
            XCTFail("expected a 400 for \(target)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testAQueuedFaultFailsTheRequestWithRetryAfterWhereItApplies() throws {
        let plan = try DemoKnobs().plan(for: request("/api/items?_fail=500"), takeFault: { .init(on: .page, status: 429, count: 1) })
        XCTAssertEqual(plan.failure?.status, 429)
        XCTAssertEqual(plan.failure?.headers["Retry-After"], "1")
        XCTAssertNil(try DemoKnobs().plan(for: request("/api/items"), takeFault: { .init(on: .page, status: 500, count: 1) }).failure?.headers["Retry-After"])
        let later = try DemoKnobs().plan(for: request("/api/items"), takeFault: { .init(on: .page, status: 503, count: 1, retryAfter: 5) })
        XCTAssertEqual(later.failure?.headers["Retry-After"], "5")
    }

    func testARefusedQueryUsesUpNoFault() {
        var asked = false
        XCTAssertThrowsError(try DemoKnobs().plan(for: request("/api/items?_delay=x"), takeFault: { asked = true; return .init(on: .page, status: 503, count: 1) }))
        XCTAssertFalse(asked)
    }

    func testNoKnobsMeansNoDelayAndNoFailure() throws {
        let plan = try DemoKnobs().plan(for: request("/api/items"))
        XCTAssertEqual(plan.delayMilliseconds, 0)
        XCTAssertNil(plan.failure)
    }

    func testTheServerDelayAppliesToEveryRequest() throws {
        XCTAssertEqual(try DemoKnobs(delayMilliseconds: 1000).plan(for: request("/api/items")).delayMilliseconds, 1000)
    }

    func testJitterAddsUpToItsValue() throws {
        let knobs = DemoKnobs(delayMilliseconds: 100, jitterMilliseconds: 50)
        // Not 0: Int.random rejects a draw of 0 for a range of 51 and would draw again, forever.
        var lowest = FixedDraw(1), highest = FixedDraw(.max)
        XCTAssertEqual(try knobs.plan(for: request("/api/items"), random: &lowest).delayMilliseconds, 100)
        XCTAssertEqual(try knobs.plan(for: request("/api/items"), random: &highest).delayMilliseconds, 150)
    }

    func testTheDelayParameterReplacesTheServerDelay() throws {
        let knobs = DemoKnobs(delayMilliseconds: 1000, jitterMilliseconds: 500)
        XCTAssertEqual(try knobs.plan(for: request("/api/items?_delay=300")).delayMilliseconds, 300)
        XCTAssertEqual(try knobs.plan(for: request("/api/items?_delay=0")).delayMilliseconds, 0)
        XCTAssertEqual(try knobs.plan(for: request("/api/items?_delay=10000")).delayMilliseconds, 10_000)
    }

    func testABadDelayIsA400NamingIt() {
        for value in ["10001", "20000", "-1", "abc", "1.5", "", "+300", "%20300"] {
            let problem = refusal(DemoKnobs(), "/api/items?_delay=\(value)")
            XCTAssertEqual(problem?.status, 400, value)
            XCTAssertEqual(problem?.invalidParams.map(\.name), ["_delay"], value)
        }
    }

    func testTheFailParameterInjectsThatStatus() throws {
        for (status, retryAfter) in [(429, true), (500, false), (503, true)] {
            let failure = try XCTUnwrap(DemoKnobs().plan(for: request("/api/items?_fail=\(status)")).failure)
            XCTAssertEqual(failure.status, status)
            XCTAssertEqual(failure.headers["Retry-After"] != nil, retryAfter, "\(status)")
            XCTAssertEqual(failure.response.headers["Content-Type"], "application/problem+json")
        }
    }

    func testABadFailIsA400NamingIt() {
        for value in ["418", "200", "404", "abc", "", "+503", "5e2"] {
            let problem = refusal(DemoKnobs(), "/api/items?_fail=\(value)")
            XCTAssertEqual(problem?.invalidParams.map(\.name), ["_fail"], value)
        }
    }

    func testEveryBadKnobIsNamedInOneError() {
        XCTAssertEqual(refusal(DemoKnobs(), "/api/items?_delay=-1&_fail=418")?.invalidParams.map(\.name), ["_delay", "_fail"])
    }

    func testARepeatedKnobIsReadAtItsFirstValue() throws {
        XCTAssertEqual(try DemoKnobs().plan(for: request("/api/items?_delay=5&_delay=x")).delayMilliseconds, 5)
    }

    func testAFailRateOfOneFailsEveryRequestWith503() throws {
        let knobs = DemoKnobs(failRate: 1)
        for _ in 0..<50 {
            let failure = try XCTUnwrap(knobs.plan(for: request("/api/items")).failure)
            XCTAssertEqual(failure.status, 503)
            XCTAssertEqual(failure.headers["Retry-After"], "1")
        }
    }

    func testAFailRateOfOneHalfFailsTheDrawsBelowItAndNotTheOthers() throws {
        let knobs = DemoKnobs(failRate: 0.5)
        var below = FixedDraw(0), above = FixedDraw(.max)
        XCTAssertEqual(try knobs.plan(for: request("/api/items"), random: &below).failure?.status, 503)
        XCTAssertNil(try knobs.plan(for: request("/api/items"), random: &above).failure)
    }

    func testTheFailParameterWinsOverTheFailRate() throws {
        XCTAssertEqual(try DemoKnobs(failRate: 1).plan(for: request("/api/items?_fail=429")).failure?.status, 429)
    }
}

/// Draws the same number every time: small numbers are the lowest draws, `.max` the highest.
private struct FixedDraw: RandomNumberGenerator {
    let value: UInt64
    init(_ value: UInt64) { self.value = value }
    func next() -> UInt64 { value }
}

import Dispatch
@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp

/// The knobs changed by a JSON merge patch, and held in one place while the server runs.
final class DemoKnobsPatchTests: XCTestCase {
    private let start = DemoKnobs(delayMilliseconds: 100, jitterMilliseconds: 10, failRate: 0.5, newItemsEvery: 5)

    private func patch(_ text: String) throws(Problem) -> DemoKnobs.Patch {
        let request = HTTPRequest(method: "PATCH", rawTarget: "/api/demo",
                                  headers: HTTPHeaders([("Content-Type", "application/merge-patch+json")]),
                                  body: Array(text.utf8))!
        return try DemoKnobs.Patch(JSONBody(request, emptyAllowed: false))
    }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            _ = try start.applying(patch(text), defaults: DemoKnobs())
            XCTFail("expected a 400 for \(text)", file: file, line: line)
            return []
        } catch {
            XCTAssertEqual(error.status, 400, file: file, line: line)
            return error.invalidParams.map(\.name).sorted()
        }
    }

    func testAFieldGivenSetsThatKnobAndTheOthersStay() throws {
        let merged = try start.applying(patch(#"{"delayMs": 1500, "failRate": 1}"#), defaults: DemoKnobs())
        XCTAssertEqual(merged, DemoKnobs(delayMilliseconds: 1500, jitterMilliseconds: 10, failRate: 1, newItemsEvery: 5))
    }

    func testAnEmptyPatchChangesNothing() throws {
        XCTAssertEqual(try start.applying(patch("{}"), defaults: DemoKnobs()), start)
    }

    func testNullPutsAKnobBackToItsStartUpValue() throws {
        let defaults = DemoKnobs(delayMilliseconds: 7, jitterMilliseconds: 8, failRate: 0.25, newItemsEvery: 2)
        let merged = try start.applying(patch(#"{"delayMs": null, "newItemsEvery": null}"#), defaults: defaults)
        XCTAssertEqual(merged, DemoKnobs(delayMilliseconds: 7, jitterMilliseconds: 10, failRate: 0.5, newItemsEvery: 2))
    }

    func testEveryBadOrUnknownFieldIsNamed() {
        XCTAssertEqual(refusal(#"{"delayMs": -1, "jitterMs": "5", "failRate": 1.5, "newItemsEvery": 86401, "speed": 3}"#),
                       ["delayMs", "failRate", "jitterMs", "newItemsEvery", "speed"])
        XCTAssertEqual(refusal(#"{"editsPerMinute": 60001, "deletesPerMinute": -1}"#), ["deletesPerMinute", "editsPerMinute"])
        XCTAssertEqual(refusal(#"{"delayMs": 600001}"#), ["delayMs"])
        XCTAssertEqual(refusal(#"{"delayMs": 1.5}"#), ["delayMs"])
        XCTAssertEqual(refusal(#"{"failRate": true}"#), ["failRate"])
        XCTAssertEqual(refusal(#"{"newItemsEvery": [1]}"#), ["newItemsEvery"])
    }

    func testTheLimitsAreAccepted() throws {
        let merged = try start.applying(patch(#"{"delayMs": 600000, "jitterMs": 0, "failRate": 0, "newItemsEvery": 86400}"#),
                                       defaults: DemoKnobs())
        XCTAssertEqual(merged, DemoKnobs(delayMilliseconds: 600_000, jitterMilliseconds: 0, failRate: 0, newItemsEvery: 86_400))
    }

    func testJSONNamesEveryKnob() throws {
        let text = String(decoding: DemoKnobs(delayMilliseconds: 250, jitterMilliseconds: 0, failRate: 0.25,
                                              newItemsEvery: 1.5).json, as: UTF8.self)
        XCTAssertEqual(text, #"{"delayMs":250,"jitterMs":0,"failRate":0.25,"newItemsEvery":1.5,"editsPerMinute":0,"deletesPerMinute":0,"shortPages":0,"cursorTtlSeconds":0}"#)
    }

    func testAControlChangesAsOneStepAndTellsItsObserversInOrder() throws {
        let control = DemoControl(start)
        let heard = HeardKnobs()
        control.observe { heard.append($0.delayMilliseconds) }
        XCTAssertEqual(control.apply(try patch(#"{"delayMs": 1}"#)).delayMilliseconds, 1)
        XCTAssertEqual(control.apply(try patch(#"{"delayMs": 2}"#)).delayMilliseconds, 2)
        XCTAssertEqual(control.knobs.delayMilliseconds, 2)
        XCTAssertEqual(heard.values, [1, 2])
        XCTAssertEqual(control.defaults, start)
        XCTAssertEqual(control.apply(try patch(#"{"delayMs": null}"#)), start, "null goes back to the control's defaults")
    }

    func testAnObserverHearsOutsideTheLockAndMayReadTheKnobs() throws {
        let control = DemoControl(start)
        let heard = HeardKnobs()
        // Told inside the lock, this read would wait for the lock its own change holds.
        control.observe { _ in heard.append(control.knobs.delayMilliseconds) }
        _ = control.apply(try patch(#"{"delayMs": 7}"#))
        XCTAssertEqual(heard.values, [7])
    }

    func testAChangeMadeByAnObserverIsToldAfterTheOneItHeard() throws {
        let control = DemoControl(start)
        let heard = HeardKnobs()
        let again = try patch(#"{"delayMs": 2}"#)
        control.observe { knobs in
            heard.append(knobs.delayMilliseconds)
            if knobs.delayMilliseconds == 1 {
                XCTAssertEqual(control.apply(again).delayMilliseconds, 2, "the nested change answers at once")
                XCTAssertEqual(heard.values, [1], "and is told once the change before it has been told to all")
            }
        }
        control.observe { heard.append(-$0.delayMilliseconds) }
        _ = control.apply(try patch(#"{"delayMs": 1}"#))
        XCTAssertEqual(heard.values, [1, -1, 2, -2])
    }
}

private final class HeardKnobs: Sendable {
    private let heard = Mutex<[Int]>([])
    var values: [Int] { heard.withLock { $0 } }
    func append(_ value: Int) { heard.withLock { $0.append(value) } }
}

/// The knobs taken from a shared store, by revision.
final class DemoControlSharingTests: XCTestCase {
    private let start = DemoKnobs(delayMilliseconds: 100, jitterMilliseconds: 10, failRate: 0.5, newItemsEvery: 5)

    func testANewerRevisionIsTakenWithItsDefaultsAndAnOlderOneIsNot() {
        let control = DemoControl(start, revision: 3)
        let heard = HeardKnobs()
        control.observe { heard.append($0.delayMilliseconds) }
        let newer = DemoKnobs(delayMilliseconds: 1, failRate: 1)
        control.adopt(newer, defaults: newer, revision: 5)
        control.adopt(start, defaults: start, revision: 4)
        control.adopt(start, defaults: start, revision: 5)
        XCTAssertEqual(control.knobs, newer)
        XCTAssertEqual(control.defaults, newer)
        XCTAssertEqual(heard.values, [1], "only the newer revision was told")
    }

    func testRevisionsAdoptedFromManyThreadsAreToldInTheOrderTheyWereTaken() {
        let control = DemoControl(start, revision: 0)
        let heard = HeardKnobs()
        control.observe { heard.append($0.delayMilliseconds) }
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            // Each thread offers a revision from its own end of the range, so many arrive late.
            let revision = index.isMultiple(of: 2) ? index : 400 - index
            let knobs = DemoKnobs(delayMilliseconds: revision)
            control.adopt(knobs, defaults: knobs, revision: Int64(revision))
        }
        let values = heard.values
        XCTAssertEqual(values, values.sorted(), "a revision taken is told after every one taken before it")
        XCTAssertEqual(Set(values).count, values.count, "each is told once")
        XCTAssertEqual(values.last, 399)
        XCTAssertEqual(control.knobs.delayMilliseconds, 399)
    }

    func testKnobsByNameKeepTheirOwnValueForAnUnknownOrOutOfRangeNumber() {
        XCTAssertEqual(DemoKnobs().with(start.numbers), start)
        let odd = start.with(["delayMs": 1.5, "failRate": 2, "jitterMs": 20, "someNewKnob": 1])
        XCTAssertEqual(odd, DemoKnobs(delayMilliseconds: 100, jitterMilliseconds: 20, failRate: 0.5, newItemsEvery: 5))
    }
}

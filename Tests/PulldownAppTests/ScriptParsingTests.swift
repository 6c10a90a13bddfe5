@testable import PulldownApp
@testable import PulldownHTTP
import XCTest

final class ScriptParsingTests: XCTestCase {
    private func parse(_ text: String) throws(ScriptError) -> DemoScript {
        try DemoScript.parse(Array(text.utf8))
    }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try parse(text)
            XCTFail("accepted \(text)", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testTheIssuesExampleParsesStepByStep() throws {
        let script = try parse(#"""
        {"steps": [
          {"at": "2s", "do": "addItems", "count": 3},
          {"after": {"refreshes": 2}, "do": "fail", "on": "refresh", "status": 503, "count": 2, "retryAfter": "5s"},
          {"at": "10s", "do": "addItems", "count": 60, "name": "burst"},
          {"after": {"step": "burst"}, "do": "set", "knobs": {"delayMs": 800, "jitterMs": 400}},
          {"at": "20s", "do": "dropStreams"},
          {"at": "30s", "do": "rateLimit", "limit": 10, "window": "10s"},
          {"at": "45s", "do": "label", "text": "Act 2: bad network"},
          {"at": "500ms", "do": "churn", "edits": 2, "deletes": 1, "repeat": {"times": 3, "every": "1m"}},
          {"at": 50, "do": "offline", "for": "10s"}
        ]}
        """#)
        XCTAssertEqual(script.steps.count, 9)
        XCTAssertEqual(script.steps[0].trigger, .at(2))
        XCTAssertEqual(script.steps[0].action, .addItems(count: 3))
        XCTAssertEqual(script.steps[1].trigger, .afterRefreshes(2))
        XCTAssertEqual(script.steps[1].action, .fail(.init(on: .refresh, status: 503, count: 2, retryAfter: 5)))
        XCTAssertEqual(script.steps[2].name, "burst")
        XCTAssertEqual(script.steps[3].trigger, .afterStep("burst"))
        guard case .set(let patch) = script.steps[3].action else { return XCTFail("not a set") }
        XCTAssertEqual(patch.changes, ["delayMs": .set(800), "jitterMs": .set(400)])
        XCTAssertEqual(script.steps[5].action, .rateLimit(.init(limit: 10, window: 10)))
        XCTAssertEqual(script.steps[6].action, .label("Act 2: bad network"))
        XCTAssertEqual(script.steps[7].trigger, .at(0.5))
        XCTAssertEqual(script.steps[7].action, .churn(edits: 2, deletes: 1))
        XCTAssertEqual([script.steps[7].times, Int(script.steps[7].every)], [3, 60])
        XCTAssertEqual(script.steps[8].action, .offline(seconds: 10))
    }

    func testEachBadScriptIsRefusedWithOneLineNamingTheStepAndField() {
        XCTAssertEqual(refusal(#"{"steps": [{"at": "2s", "do": "addItems", "count": 0}]}"#),
                       "step 0: count must be an integer from 1 to 100")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "label", "text": "x"}, {"name": "b", "at": "soon", "do": "dropStreams"}]}"#),
                       "step 1 (\"b\"): at " + ScriptDuration.reason + ", from 0s to 86400s")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "explode"}]}"#).prefix(16), "step 0: do must ")
        XCTAssertEqual(refusal(#"{"steps": [{"do": "dropStreams"}]}"#), "step 0: at is required, or after")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "after": {"refreshes": 1}, "do": "dropStreams"}]}"#),
                       "step 0: after cannot go with at: a step has one or the other")
        XCTAssertEqual(refusal(#"{"steps": [{"after": {"step": "nobody"}, "do": "dropStreams"}]}"#),
                       "step 0: after.step must name another step of the script")
        XCTAssertEqual(refusal(#"{"steps": [{"after": {"refreshes": 0}, "do": "dropStreams"}]}"#),
                       "step 0: after.refreshes must be an integer from 1 to 1000000")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "set", "knobs": {"delayMs": -1}}]}"#),
                       "step 0: knobs.delayMs must be an integer from 0 to 600000")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "fail", "status": 503}]}"#), "step 0: on is required")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "rateLimit", "limit": 5}]}"#), "step 0: window is required")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "rateLimit", "limit": 5, "window": "1.5s"}]}"#),
                       "step 0: window must be whole seconds")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "dropStreams", "count": 1}]}"#), "step 0: count is not a known field")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "dropStreams", "repeat": {"times": 2}}]}"#),
                       "step 0: repeat.every is required with at")
        XCTAssertEqual(refusal(#"{"steps": [{"name": "a", "at": "1s", "do": "dropStreams"}, {"name": "a", "at": "2s", "do": "dropStreams"}]}"#),
                       "step 1 (\"a\"): name is the name of an earlier step")
        XCTAssertEqual(refusal(#"{"steps": 3}"#), "the script: steps must be an array")
        XCTAssertEqual(refusal(#"{"stepz": []}"#), "the script: stepz is not a known field")
        XCTAssertEqual(refusal(#"[1]"#), "the script: must be a JSON object")
        XCTAssertTrue(refusal(#"{"steps": [}"#).hasPrefix("the script: is not well-formed JSON"))
        XCTAssertEqual(refusal(#"{"steps": [7]}"#), "step 0: must be a JSON object")
        // Each field a step cannot do without, missing, is named.
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s"}]}"#), "step 0: do is required")
        XCTAssertEqual(refusal(#"{"steps": [{"at": "1s", "do": "set"}]}"#), "step 0: knobs is required")
        XCTAssertEqual(refusal(#"{"steps": [{"after": {"refreshes": 1}, "do": "dropStreams", "repeat": {}}]}"#),
                       "step 0: repeat.times is required")
        XCTAssertEqual(refusal(#"{"steps": [{"after": {}, "do": "dropStreams"}]}"#), "step 0: after.refreshes is required, or step")
        XCTAssertEqual(refusal(#"{"steps": [{"after": 2, "do": "dropStreams"}]}"#), "step 0: after must be an object")
    }

    func testARefusalIsA400NamingTheStepsField() {
        let error = ScriptError(index: 2, name: "burst", field: "count", reason: "must be an integer from 1 to 100")
        XCTAssertEqual(error.problem.status, 400)
        XCTAssertEqual(error.problem.invalidParams.map(\.name), ["steps[2].count"])
    }

    func testDurations() {
        XCTAssertEqual(ScriptDuration.seconds("500ms"), 0.5)
        XCTAssertEqual(ScriptDuration.seconds("2s"), 2)
        XCTAssertEqual(ScriptDuration.seconds("1.5m"), 90)
        XCTAssertEqual(ScriptDuration.seconds("1h"), 3600)
        XCTAssertEqual(ScriptDuration.seconds("1.25s"), 1.25)
        for bad in ["", "s", "-1s", "1e3s", "2 s", "inf s", "2", "1.s", ".5s", "1.2.3s", "0x1s"] { XCTAssertNil(ScriptDuration.seconds(bad), bad) }
    }
}

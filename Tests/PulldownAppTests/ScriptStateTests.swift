@testable import PulldownApp
import Foundation
import XCTest

/// The script's play as a pure machine: dates in, steps to run and wakes out.
final class ScriptStateTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_767_225_600)   // 2026-01-01T00:00:00Z

    private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    private func script(_ text: String) throws -> DemoScript {
        try DemoScript.parse(Array(text.utf8))
    }

    func testTimedStepsRunWhenTheClockReachesThemInScriptOrder() throws {
        var state = ScriptState()
        let loaded = state.load(try script(#"""
        {"steps": [{"at": "2s", "do": "addItems", "count": 1}, {"at": "0s", "do": "label", "text": "Act 1"},
                   {"at": "2s", "do": "dropStreams"}]}
        """#), at: t0, playing: true)
        XCTAssertEqual(loaded, [.run(1), .wake(at: at(2))])
        XCTAssertEqual(state.label, "Act 1")
        XCTAssertEqual(state.advance(to: at(1.999)), [.wake(at: at(2))])
        XCTAssertEqual(state.advance(to: at(2)), [.run(0), .run(2)])
        XCTAssertEqual(state.phase, .finished)
        XCTAssertEqual(state.advance(to: at(3)), [])
    }

    func testPausedTimeDoesNotCount() throws {
        var state = ScriptState()
        _ = state.load(try script(#"{"steps": [{"at": "10s", "do": "dropStreams"}]}"#), at: t0, playing: true)
        XCTAssertEqual(state.advance(to: at(4)), [.wake(at: at(10))])
        XCTAssertEqual(state.pause(at: at(4)), [])
        XCTAssertEqual(state.advance(to: at(100)), [])
        XCTAssertEqual(state.elapsed(at: at(100)), 4)
        XCTAssertEqual(state.play(at: at(100)), [.wake(at: at(106))])
        XCTAssertEqual(state.advance(to: at(106)), [.run(0)])
    }

    func testRefreshCuesCountAnsweredRefreshesAndRepeat() throws {
        var state = ScriptState()
        _ = state.load(try script(#"""
        {"steps": [{"after": {"refreshes": 2}, "do": "fail", "on": "refresh", "repeat": {"times": 2}},
                   {"at": "1h", "do": "dropStreams"}]}
        """#), at: t0, playing: true)
        XCTAssertEqual(state.refreshed(at: at(1)), [.wake(at: at(3600))])
        XCTAssertEqual(state.refreshed(at: at(2)), [.run(0), .wake(at: at(3600))])
        XCTAssertEqual(state.refreshed(at: at(3)), [.wake(at: at(3600))])
        XCTAssertEqual(state.refreshed(at: at(4)), [.run(0), .wake(at: at(3600))])
        XCTAssertEqual(state.refreshed(at: at(5)), [.wake(at: at(3600))])
        XCTAssertEqual(state.runs, [2, 0])
    }

    func testAStepCueRunsAfterTheStepItNamesHasRun() throws {
        var state = ScriptState()
        _ = state.load(try script(#"""
        {"steps": [{"name": "burst", "at": "1s", "do": "addItems", "count": 60},
                   {"after": {"step": "burst"}, "do": "set", "knobs": {"delayMs": 800}}]}
        """#), at: t0, playing: true)
        XCTAssertEqual(state.advance(to: at(1)), [.run(0)])
        XCTAssertEqual(state.ran(0, at: at(1)), [.run(1)])
        XCTAssertEqual(state.phase, .finished)
    }

    func testRepeatsRunEveryIntervalAndAllThatACatchUpMissed() throws {
        var state = ScriptState()
        _ = state.load(try script(#"{"steps": [{"at": "1s", "do": "dropStreams", "repeat": {"times": 3, "every": "2s"}}]}"#),
                       at: t0, playing: true)
        XCTAssertEqual(state.advance(to: at(1)), [.run(0), .wake(at: at(3))])
        XCTAssertEqual(state.advance(to: at(10)), [.run(0), .run(0)])
        XCTAssertEqual(state.phase, .finished)
    }

    func testRestartPlaysFromTheStartAndForgetsTheLabel() throws {
        var state = ScriptState()
        _ = state.load(try script(#"{"steps": [{"at": "1s", "do": "label", "text": "A"}, {"at": "5s", "do": "dropStreams"}]}"#),
                       at: t0, playing: true)
        _ = state.advance(to: at(1))
        XCTAssertEqual(state.label, "A")
        XCTAssertEqual(state.restart(at: at(3)), [.wake(at: at(4))])
        XCTAssertNil(state.label)
        XCTAssertEqual(state.runs, [0, 0])
    }

    func testALoadedScriptCanWaitForPlay() throws {
        var state = ScriptState()
        XCTAssertEqual(state.load(try script(#"{"steps": [{"at": "0s", "do": "dropStreams"}]}"#), at: t0, playing: false), [])
        XCTAssertEqual(state.phase, .paused)
        XCTAssertEqual(state.refreshed(at: t0), [])
        XCTAssertEqual(state.play(at: at(7)), [.run(0)])
    }
}

/// The fixed window, exact to the second on dates given by hand.
final class RateLimitWindowTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    func testBeyondTheLimitRefusedUntilExactlyTheWindowEnds() {
        var window = RateLimitWindow(.init(limit: 3, window: 10), from: t0)
        XCTAssertEqual(window.admit(at: t0), .allowed(remaining: 2, reset: 10))
        XCTAssertEqual(window.admit(at: t0.addingTimeInterval(1)), .allowed(remaining: 1, reset: 9))
        XCTAssertEqual(window.admit(at: t0.addingTimeInterval(2)), .allowed(remaining: 0, reset: 8))
        XCTAssertEqual(window.admit(at: t0.addingTimeInterval(2)), .refused(reset: 8))
        XCTAssertEqual(window.admit(at: t0.addingTimeInterval(9.5)), .refused(reset: 1))
        XCTAssertEqual(window.admit(at: t0.addingTimeInterval(10)), .allowed(remaining: 2, reset: 10))
    }

    func testTheFieldsFollowTheDraft() {
        let window = RateLimitWindow(.init(limit: 10, window: 60), from: t0)
        let headers = window.headers(for: .allowed(remaining: 4, reset: 17))
        XCTAssertEqual(headers.map(\.0), ["RateLimit-Policy", "RateLimit"])
        XCTAssertEqual(headers.map(\.1), [#""demo";q=10;w=60"#, #""demo";r=4;t=17"#])
        let refusal = window.refusal(reset: 5)
        XCTAssertEqual(refusal.status, 429)
        XCTAssertEqual(refusal.headers["Retry-After"], "5")
        XCTAssertEqual(refusal.headers["RateLimit"], #""demo";r=0;t=5"#)
    }
}

import XCTest
@testable import PulldownHTTP

/// The request's life without a server: each event and the action it asks for.
final class ExchangeStateTests: XCTestCase {
    private let ok = HTTPResponse.text("ok")
    private let other = HTTPResponse.text("other", status: 500)
    private let stopping = HTTPResponse.text("stopping", status: 503)

    private func handling() -> ExchangeState {
        var state = ExchangeState()
        state.handlerStarted()
        return state
    }

    func testAnAnswerGivenBeforeTheHandlerReturnsIsQueuedWithoutSuspending() {
        var state = handling()
        XCTAssertEqual(state.complete(with: ok).kind, "none")
        XCTAssertEqual(state.handlerReturned().response?.status, 200)
        XCTAssertEqual(state.phase, .answered)
    }

    func testNoAnswerSuspendsAndALaterAnswerResumesThenQueues() {
        var state = handling()
        XCTAssertEqual(state.handlerReturned().kind, "suspend")
        XCTAssertEqual(state.suspended().kind, "none")
        XCTAssertEqual(state.phase, .suspended)
        XCTAssertNil(state.resumeArrived(), "no resume without an answer")
        XCTAssertEqual(state.complete(with: ok).kind, "resume")
        XCTAssertEqual(state.resumeArrived()?.response?.text, "ok")
        XCTAssertEqual(state.phase, .answered)
    }

    func testAnAnswerArrivingWhileSuspendingResumesAsSoonAsTheSuspensionIsDone() {
        var state = handling()
        XCTAssertEqual(state.handlerReturned().kind, "suspend")
        // Another thread answers before the connection's thread has called MHD_suspend.
        XCTAssertEqual(state.complete(with: ok).kind, "none", "no resume before the suspension")
        XCTAssertEqual(state.suspended().kind, "resume")
        XCTAssertEqual(state.resumeArrived()?.response?.text, "ok")
    }

    func testOnlyTheFirstAnswerCounts() {
        var state = handling()
        _ = state.handlerReturned()
        _ = state.suspended()
        XCTAssertEqual(state.complete(with: ok).kind, "resume")
        XCTAssertEqual(state.complete(with: other).kind, "none")
        XCTAssertEqual(state.resumeArrived()?.response?.text, "ok")
        XCTAssertEqual(state.complete(with: other).kind, "none", "after the answer went out")
    }

    func testARefusedSuspensionQueuesTheStoppingAnswerOrTheOneThatCameMeanwhile() {
        var refused = handling()
        _ = refused.handlerReturned()
        XCTAssertEqual(refused.suspensionRefused(stoppingAnswer: stopping).response?.status, 503)
        XCTAssertEqual(refused.phase, .answered)

        var answered = handling()
        _ = answered.handlerReturned()
        _ = answered.complete(with: ok)
        XCTAssertEqual(answered.suspensionRefused(stoppingAnswer: stopping).response?.status, 200)
    }

    func testAnEarlyAnswerEndsReadingAndWinsOverLaterOnes() {
        var state = ExchangeState()
        XCTAssertTrue(state.isReading)
        XCTAssertEqual(state.answerEarly(stopping).response?.status, 503)
        XCTAssertFalse(state.isReading)
        XCTAssertEqual(state.complete(with: ok).kind, "none")
    }
}

extension ExchangeState.Action {
    /// The case's name, for comparisons.
    var kind: String {
        switch self {
        case .none: "none"
        case .queue: "queue"
        case .suspend: "suspend"
        case .resume: "resume"
        }
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

import XCTest
@testable import PulldownHTTP

/// The request's life without a server, from its head to its answer: each event and the
/// action it asks for. Answers are plain strings.
final class ExchangeStateTests: XCTestCase {
    private typealias State = ExchangeState<String>

    private func read(body: String = "") -> State {
        var state = State()
        XCTAssertEqual(state.headRead(refusal: nil), .none)
        Array(body.utf8).withUnsafeBufferPointer { state.bodyRead($0, limit: 10) }
        return state
    }

    private func handling(body: String = "") -> State {
        var state = read(body: body)
        XCTAssertEqual(state.readyToAnswer(), .handle(body: Array(body.utf8)))
        return state
    }

    func testAHeadThatFailsItsChecksIsRefusedAtOnceAndNothingElseHappens() {
        var state = State()
        XCTAssertEqual(state.headRead(refusal: "400"), .refuse("400"))
        XCTAssertEqual(state.state, .answered)
        XCTAssertEqual(state.readyToAnswer(), .none)
        XCTAssertEqual(state.complete(with: "ok"), .none)
    }

    func testTheBodyArrivesInPiecesAndGoesToTheHandlerWhole() {
        var state = read(body: "ab")
        Array("cd".utf8).withUnsafeBufferPointer { state.bodyRead($0, limit: 10) }
        XCTAssertEqual(state.readyToAnswer(), .handle(body: Array("abcd".utf8)))
    }

    func testABodyPastTheLimitIsDroppedAndRefusedOnceTheRequestIsComplete() {
        var state = read(body: "0123456789")
        XCTAssertEqual(state.state, .readingBody(Array("0123456789".utf8)), "exactly the limit is kept")
        Array("x".utf8).withUnsafeBufferPointer { state.bodyRead($0, limit: 10) }
        XCTAssertEqual(state.state, .discardingBody)
        Array("more".utf8).withUnsafeBufferPointer { state.bodyRead($0, limit: 10) }
        XCTAssertEqual(state.readyToAnswer(), .refuseBodyTooLarge)
    }

    func testAnAnswerGivenBeforeTheHandlerReturnsIsQueuedWithoutSuspending() {
        var state = handling()
        XCTAssertEqual(state.complete(with: "ok"), .none)
        XCTAssertEqual(state.handlerReturned(), .queue("ok"))
        XCTAssertEqual(state.state, .answered)
    }

    func testNoAnswerSuspendsAndALaterAnswerResumesThenQueues() {
        var state = handling()
        XCTAssertEqual(state.handlerReturned(), .suspend)
        XCTAssertEqual(state.suspended(), .none)
        XCTAssertEqual(state.readyToAnswer(), .none, "no answer without a resume")
        XCTAssertEqual(state.complete(with: "ok"), .resume)
        XCTAssertEqual(state.readyToAnswer(), .queue("ok"))
        XCTAssertEqual(state.state, .answered)
    }

    func testAnAnswerArrivingWhileSuspendingResumesAsSoonAsTheSuspensionIsDone() {
        var state = handling()
        XCTAssertEqual(state.handlerReturned(), .suspend)
        // Another thread answers before the connection's thread has called MHD_suspend.
        XCTAssertEqual(state.complete(with: "ok"), .none, "no resume before the suspension")
        XCTAssertEqual(state.suspended(), .resume)
        XCTAssertEqual(state.readyToAnswer(), .queue("ok"))
    }

    func testOnlyTheFirstAnswerCounts() {
        var state = handling()
        _ = state.handlerReturned()
        _ = state.suspended()
        XCTAssertEqual(state.complete(with: "ok"), .resume)
        XCTAssertEqual(state.complete(with: "other"), .none)
        XCTAssertEqual(state.readyToAnswer(), .queue("ok"))
        XCTAssertEqual(state.complete(with: "other"), .none, "after the answer went out")
    }

    func testARefusedSuspensionQueuesTheStoppingAnswerOrTheOneThatCameMeanwhile() {
        var refused = handling()
        _ = refused.handlerReturned()
        XCTAssertEqual(refused.suspensionRefused(stoppingAnswer: "503"), .queue("503"))
        XCTAssertEqual(refused.state, .answered)

        var answered = handling()
        _ = answered.handlerReturned()
        _ = answered.complete(with: "ok")
        XCTAssertEqual(answered.suspensionRefused(stoppingAnswer: "503"), .queue("ok"))
    }
}

import XCTest
@testable import PulldownHTTP

final class TLSRecordCorkTests: XCTestCase {
    func testASmallAnswerIsCorkedOnlyWhenTheSocketHasRoomForItTwice() {
        XCTAssertTrue(TLSRecordCork.fits(answerBytes: 6_500, unacknowledged: 0, sendBuffer: 16_384))
        XCTAssertFalse(TLSRecordCork.fits(answerBytes: 6_500, unacknowledged: 4_000, sendBuffer: 16_384),
                       "what the peer has not taken yet leaves too little room")
        XCTAssertFalse(TLSRecordCork.fits(answerBytes: 9_000, unacknowledged: 0, sendBuffer: 16_384))
        XCTAssertTrue(TLSRecordCork.fits(answerBytes: 9_000, unacknowledged: 0, sendBuffer: 87_040))
    }

    func testALargeAnswerOrAnUnknownQueueIsNeverCorked() {
        XCTAssertFalse(TLSRecordCork.fits(answerBytes: 16 * 1024 + 1, unacknowledged: 0, sendBuffer: 4 << 20))
        XCTAssertFalse(TLSRecordCork.fits(answerBytes: 100, unacknowledged: -1, sendBuffer: 4 << 20))
    }

    func testTheEstimateCountsTheFieldsAndTheBodyOnlyWhenItIsSent() {
        let response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]),
                                    body: Array(repeating: 0x20, count: 1000))
        XCTAssertEqual(TLSRecordCork.estimatedSize(of: response, sendsBody: true), 256 + 12 + 16 + 4 + 1000)
        XCTAssertEqual(TLSRecordCork.estimatedSize(of: response, sendsBody: false), 256 + 12 + 16 + 4)
    }
}

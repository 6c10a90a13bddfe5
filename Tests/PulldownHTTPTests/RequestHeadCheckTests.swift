import XCTest
@testable import PulldownHTTP

/// The checks of a request's head, without a socket.
final class RequestHeadCheckTests: XCTestCase {
    private func refusal(_ headers: [(String, String)]) -> Int? {
        requestHeadRefusal(isHTTP11: true, headers: HTTPHeaders([("Host", "x")] + headers), bodyLimit: 100)?.status
    }

    func testAnOrdinaryHeadPasses() {
        XCTAssertNil(refusal([("Content-Length", "100")]))
        XCTAssertNil(refusal([("Transfer-Encoding", "chunked")]))
    }

    func testADeclaredBodyOverTheLimitIsRefused413() {
        XCTAssertEqual(refusal([("Content-Length", "101")]), 413)
    }

    func testTransferCodingsOtherThanChunkedAreRefused() {
        XCTAssertEqual(refusal([("Transfer-Encoding", "gzip")]), 400, "chunked is not last: no framing")
        XCTAssertEqual(refusal([("Transfer-Encoding", "gzip, chunked")]), 501)
    }

    func testABadHostOrTwoAreRefused400() {
        XCTAssertEqual(requestHeadRefusal(isHTTP11: true, headers: HTTPHeaders([("Host", "evil.example/x")]), bodyLimit: 100)?.status, 400)
        XCTAssertEqual(requestHeadRefusal(isHTTP11: false, headers: HTTPHeaders([("Host", "a b")]), bodyLimit: 100)?.status, 400)
        XCTAssertEqual(refusal([("host", "y")]), 400, "two Host fields")
        XCTAssertNil(refusal([]))
    }

    func testHTTP11WithoutHostIsRefused400ButHTTP10IsNot() {
        XCTAssertEqual(requestHeadRefusal(isHTTP11: true, headers: HTTPHeaders([]), bodyLimit: 100)?.status, 400)
        XCTAssertNil(requestHeadRefusal(isHTTP11: false, headers: HTTPHeaders([]), bodyLimit: 100))
    }
}

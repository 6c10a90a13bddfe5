import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// A store that stops answering gets the client a 503 that says nothing about the database.
final class StoreFailureTests: XCTestCase {
    private func api() throws -> API {
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        return API(feed: Feed(store: UnreachableStore()), sessions: SessionResolver(tokens: tokens), pageSize: 20)
    }

    private func assertGeneric503(_ response: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, 503, file: file, line: line)
        XCTAssertEqual(response.headers["Retry-After"], "1", file: file, line: line)
        let body = String(decoding: response.body, as: UTF8.self)
        for secret in ["db.internal.example", "postgres", "5432", "ada", "Connection refused"] {
            XCTAssertFalse(body.contains(secret), "the answer gives away \(secret): \(body)", file: file, line: line)
        }
        XCTAssertTrue(body.contains("The store did not answer"), body, file: file, line: line)
    }

    func testAPageRequestGetsAGeneric503() throws {
        assertGeneric503(try api().items(HTTPRequest(method: "GET", rawTarget: "/api/items?before=10")!))
    }

    func testARefreshGetsAGeneric503() throws {
        let answered = expectation(description: "refresh answered")
        let response = Mutex<HTTPResponse?>(nil)
        try api().refresh(HTTPRequest(method: "POST", rawTarget: "/api/refresh")!, Responder { sent in
            response.withLock { $0 = sent }
            answered.fulfill()
        })
        wait(for: [answered], timeout: 10)
        assertGeneric503(try XCTUnwrap(response.withLock { $0 }))
    }
}

@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// A store that stops answering gets the client a 503 that says nothing about the database; an
/// error no layer knows is a 500, which says nothing either.
final class StoreFailureTests: XCTestCase {
    private func api(store: any FeedStore = UnreachableStore()) throws -> API {
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        return API(feed: Feed(store: store), sessions: SessionResolver(tokens: tokens), pageSize: 20)
    }

    /// The answer `items` gives, waited for.
    private func items(_ api: API, _ target: String) throws -> HTTPResponse {
        let answered = expectation(description: "items answered")
        let response = Mutex<HTTPResponse?>(nil)
        api.items(HTTPRequest(method: "GET", rawTarget: target, headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { sent in
            response.withLock { $0 = sent }
            answered.fulfill()
        })
        wait(for: [answered], timeout: 10)
        return try XCTUnwrap(response.withLock { $0 })
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
        assertGeneric503(try items(api(), "/api/items?before=10"))
        assertGeneric503(try items(api(), "/api/items"))
    }

    func testTheNewestPageOfASharedStoreThatFailsItsCheckGetsAGeneric503() throws {
        let api = try api(store: UnreachableSharedStore())
        assertGeneric503(try items(api, "/api/items"))
        // The next request asks the store again, and gets the same answer.
        assertGeneric503(try items(api, "/api/items?limit=5"))
    }

    func testAnErrorNoLayerKnowsIsA500ThatSaysNothingOfIt() throws {
        let response = try items(api(store: BrokenStore()), "/api/items?before=10")
        XCTAssertEqual(response.status, 500)
        XCTAssertNil(response.headers["Retry-After"], "retrying will not fix a bug")
        let body = String(decoding: response.body, as: UTF8.self)
        XCTAssertFalse(body.contains("db.internal.example"), body)
        XCTAssertFalse(body.contains("The store did not answer"), body)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
    }

    func testARefreshGetsAGeneric503() throws {
        let answered = expectation(description: "refresh answered")
        let response = Mutex<HTTPResponse?>(nil)
        try api().refresh(HTTPRequest(method: "POST", rawTarget: "/api/refresh", headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { sent in
            response.withLock { $0 = sent }
            answered.fulfill()
        })
        wait(for: [answered], timeout: 10)
        assertGeneric503(try XCTUnwrap(response.withLock { $0 }))
    }
}

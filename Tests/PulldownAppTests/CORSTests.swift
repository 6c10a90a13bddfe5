@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp

/// Cross-origin rules without a server: any origin without credentials, the listed ones with;
/// the demo never from another origin without its token.
final class CORSTests: XCTestCase {
    private func request(_ method: String, _ headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: method, rawTarget: "/api/items", headers: HTTPHeaders([("Host", "localhost:8080")] + headers))!
    }

    private func request(_ headers: [(String, String)]) -> HTTPRequest {
        request("GET", headers)
    }

    private func through(_ middleware: any HTTPMiddleware, _ request: HTTPRequest,
                         answer: HTTPResponse = HTTPResponse(status: 200)) -> (HTTPResponse, reached: Bool) {
        let sent = Mutex<HTTPResponse?>(nil), reached = Mutex(false)
        middleware.handle(request, Responder { response in sent.withLock { $0 = response } }) { _, responder in
            reached.withLock { $0 = true }
            responder.send(answer)
        }
        return (sent.withLock { $0 }!, reached.withLock { $0 })
    }

    func testAnyOriginIsAnsweredWithoutCredentialsAndSeesTheHeadersItNeeds() {
        let (response, _) = through(CORS(), request([("Origin", "http://localhost:5173")]))
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertNil(response.headers["Access-Control-Allow-Credentials"])
        let exposed = Set((response.headers["Access-Control-Expose-Headers"] ?? "").split(separator: ",").map { $0.trimmingSpaces() })
        XCTAssertTrue(["Link", "ETag", "Location", "Retry-After", "X-Session-Id"].allSatisfy { exposed.contains($0[...]) })
        XCTAssertNil(response.headers["Vary"], "the answer is the same for every origin")
    }

    func testAListedOriginGetsCredentialsAndTheAnswersSayTheyVary() {
        let cors = CORS(credentialedOrigins: ["http://localhost:5173"])
        let (listed, _) = through(cors, request([("Origin", "http://localhost:5173")]))
        XCTAssertEqual(listed.headers.values(for: "Access-Control-Allow-Origin"), ["http://localhost:5173"])
        XCTAssertEqual(listed.headers["Access-Control-Allow-Credentials"], "true")
        XCTAssertEqual(listed.headers["Vary"], "Origin")
        let (other, _) = through(cors, request([("Origin", "http://evil.example")]))
        XCTAssertEqual(other.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertNil(other.headers["Access-Control-Allow-Credentials"])
        XCTAssertEqual(other.headers["Vary"], "Origin")
    }

    func testAnAnswerNoCacheKeepsGetsNothingWhenNoPageAskedForIt() {
        var session = HTTPResponse.json(Array("{}".utf8))
        session.headers.add("Cache-Control", "no-store")
        XCTAssertNil(through(CORS(), request([]), answer: session).0.headers["Access-Control-Allow-Origin"], "curl, a native app")
        XCTAssertEqual(through(CORS(), request([("Origin", "http://localhost:5173")]), answer: session).0
            .headers["Access-Control-Allow-Origin"], "*")
        let page = HTTPResponse.json(Array("{}".utf8))
        XCTAssertEqual(through(CORS(), request([]), answer: page).0.headers["Access-Control-Allow-Origin"], "*",
                       "a cache may keep it and give it to a page later")
    }

    func testAKeptAnswerThatCarriesTheSharedHeadersPassesUntouched() {
        var kept = HTTPResponse.json(Array("{}".utf8))
        CORS().addSharedHeaders(to: &kept)
        let prepared = HTTPResponse(prepared: PreparedResponse(kept))
        let (response, _) = through(CORS(), request([("Origin", "http://localhost:5173")]), answer: prepared)
        XCTAssertNotNil(response.prepared, "sent as it was kept, not built again")
    }

    func testAPreflightAllowsTheAPIsHeadersAndThoseAskedFor() {
        let (response, reached) = through(CORS(), request("OPTIONS", [
            ("Origin", "http://localhost:5173"), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type,x-session-id,x-requested-with,bad header")]))
        XCTAssertFalse(reached)
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertEqual(response.headers["Access-Control-Allow-Headers"],
                       "Content-Type, X-Session-Id, If-None-Match, Last-Event-ID, Authorization, x-requested-with")
        XCTAssertEqual(response.headers["Access-Control-Allow-Methods"], "GET, HEAD, POST, PUT, PATCH, DELETE")
        XCTAssertEqual(response.headers["Access-Control-Max-Age"], "7200")
    }

    func testARefusedPreflightSaysWhyAndNamesTheOption() throws {
        var cors = CORS()
        cors.preflightRefusal = DemoAccess(host: "127.0.0.1", configured: nil).preflightRefusal
        let (response, reached) = through(cors, request("OPTIONS", [("Origin", "http://localhost:5173"),
                                                                   ("Access-Control-Request-Method", "PATCH")]))
        XCTAssertFalse(reached)
        XCTAssertEqual(response.status, 403)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("--demo-token"))
        XCTAssertNil(DemoAccess(host: "127.0.0.1", configured: "presenter-1").preflightRefusal, "a token can let it in")
        XCTAssertNil(DemoAccess(host: "0.0.0.0", configured: nil).preflightRefusal)
    }

    func testAPageOfAnotherOriginIsToldByItsBrowserElseByItsOrigin() {
        let base = BaseURL()
        XCTAssertTrue(CORS.isCrossOrigin(request([("Sec-Fetch-Site", "same-site"), ("Origin", "http://localhost:5173")]), baseURL: base))
        XCTAssertTrue(CORS.isCrossOrigin(request([("Sec-Fetch-Site", "cross-site")]), baseURL: base))
        XCTAssertFalse(CORS.isCrossOrigin(request([("Sec-Fetch-Site", "same-origin"), ("Origin", "http://localhost:8080")]), baseURL: base))
        XCTAssertFalse(CORS.isCrossOrigin(request([("Sec-Fetch-Site", "none")]), baseURL: base), "typed into the address bar")
        XCTAssertTrue(CORS.isCrossOrigin(request([("Origin", "http://localhost:5173")]), baseURL: base))
        XCTAssertTrue(CORS.isCrossOrigin(request([("Origin", "null")]), baseURL: base))
        XCTAssertFalse(CORS.isCrossOrigin(request([("Origin", "http://localhost:8080")]), baseURL: base))
        XCTAssertFalse(CORS.isCrossOrigin(request([]), baseURL: base), "curl, a native app")
    }

    func testTheDemoRefusesAnotherOriginWithoutItsTokenOnLoopbackToo() {
        let open = DemoAccess(host: "127.0.0.1", configured: nil)
        let page = [("Origin", "http://localhost:5173"), ("Sec-Fetch-Site", "same-site")]
        XCTAssertTrue(through(open, request("POST", [])).reached, "curl on loopback")
        XCTAssertTrue(through(open, request("POST", [("Origin", "http://localhost:8080"), ("Sec-Fetch-Site", "same-origin")])).reached,
                      "the page itself")
        let (refused, reached) = through(open, request("POST", page))
        XCTAssertFalse(reached)
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("--demo-token"))
        let withToken = DemoAccess(host: "127.0.0.1", configured: "presenter-1")
        XCTAssertTrue(through(withToken, request("POST", [])).reached, "on loopback the token is for other origins only")
        XCTAssertEqual(through(withToken, request("POST", page)).0.status, 401)
        XCTAssertTrue(through(withToken, request("POST", page + [("Authorization", "Bearer presenter-1")])).reached)
    }
}

import XCTest
@testable import PulldownHTTP

final class RouterTests: XCTestCase {
    private func request(_ method: String, _ target: String) -> HTTPRequest {
        HTTPRequest(method: method, rawTarget: target)!
    }

    private func bodyText(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    private func makeRouter() -> Router {
        var router = Router(fallback: { request in .text("fallback \(request.path)", status: 299) })
        router.get("/api/items") { _ in .text("list") }
        router.post("/api/items") { _ in .text("add", status: 201) }
        router.post("/api/refresh") { _ in .text("refresh") }
        router.add("PUT", "/api/thing") { _ in .text("put") }
        return router
    }

    func testExactPathAndMethodReachTheirHandler() {
        let router = makeRouter()
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items"))), "list")
        let added = router.respond(to: request("POST", "/api/items"))
        XCTAssertEqual(added.status, 201)
        XCTAssertEqual(bodyText(added), "add")
        XCTAssertEqual(bodyText(router.respond(to: request("PUT", "/api/thing"))), "put")
    }

    func testQueryStringDoesNotChangeTheRoute() {
        let router = makeRouter()
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items?limit=3"))), "list")
    }

    func testRoutesMatchExactlyNotByPrefixOrTrailingSlash() {
        let router = makeRouter()
        XCTAssertEqual(router.respond(to: request("GET", "/api/items/")).status, 299)
        XCTAssertEqual(router.respond(to: request("GET", "/api/items/7")).status, 299)
        XCTAssertEqual(router.respond(to: request("GET", "/api/item")).status, 299)
        XCTAssertEqual(router.respond(to: request("GET", "/API/items")).status, 299, "paths are case-sensitive")
    }

    func testMethodsAreCaseSensitive() {
        let response = makeRouter().respond(to: request("get", "/api/items"))
        XCTAssertEqual(response.status, 405)
    }

    func testHeadIsServedByTheGetRoute() {
        let response = makeRouter().respond(to: request("HEAD", "/api/items"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(bodyText(response), "list")
    }

    func testHeadOnAPathWithoutGetIsNotAllowed() {
        let response = makeRouter().respond(to: request("HEAD", "/api/refresh"))
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["Allow"], "POST")
    }

    func testWrongMethodGets405WithSortedAllowIncludingHead() {
        let response = makeRouter().respond(to: request("DELETE", "/api/items"))
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["Allow"], "GET, HEAD, POST")
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
    }

    func testAllowedMethodsAreSortedAndNilForUnroutedPaths() {
        let router = makeRouter()
        XCTAssertEqual(router.allowedMethods(for: "/api/items"), ["GET", "HEAD", "POST"])
        XCTAssertEqual(router.allowedMethods(for: "/api/refresh"), ["POST"])
        XCTAssertNil(router.allowedMethods(for: "/nowhere"))
    }

    func testUnroutedPathGoesToTheFallbackWhateverTheMethod() {
        let router = makeRouter()
        let response = router.respond(to: request("DELETE", "/style.css"))
        XCTAssertEqual(response.status, 299)
        XCTAssertEqual(bodyText(response), "fallback /style.css")
    }

    func testDefaultFallbackIsAProblem404() {
        let response = Router().respond(to: request("GET", "/missing"))
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
    }

    func testLaterRouteForTheSameMethodAndPathReplacesTheEarlierOne() {
        var router = Router()
        router.get("/x") { _ in .text("first") }
        router.get("/x") { _ in .text("second") }
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/x"))), "second")
    }
}

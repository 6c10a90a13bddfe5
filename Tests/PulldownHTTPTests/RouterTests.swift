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

    func testAPatternSegmentMatchesOneSegmentAndReachesTheHandler() {
        var router = Router(fallback: { _ in .text("fallback", status: 299) })
        router.get("/api/items/{id}") { request in .text("item \(request.pathParameters["id"] ?? "-")") }
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items/42"))), "item 42")
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items/a%2Fb"))), "item a/b", "an encoded / stays in its segment")
        XCTAssertEqual(router.respond(to: request("GET", "/api/items/")).status, 299, "an empty segment is no id")
        XCTAssertEqual(router.respond(to: request("GET", "/api/items/1/2")).status, 299)
        let refused = router.respond(to: request("POST", "/api/items/42"))
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers["Allow"], "GET, HEAD")
    }

    func testAnExactRouteWinsOverAPattern() {
        var router = Router()
        router.get("/api/items/{id}") { _ in .text("pattern") }
        router.get("/api/items/newest") { _ in .text("exact") }
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items/newest"))), "exact")
        XCTAssertEqual(bodyText(router.respond(to: request("GET", "/api/items/7"))), "pattern")
    }

    /// Notes its name on the way in and on the answer on the way out.
    private struct Tracer: HTTPMiddleware {
        let name: String
        func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
            next(request, Responder { response in
                var response = response
                response.headers.add("X-Trace", name)
                responder.send(response)
            })
        }
    }

    /// Answers by itself, never calling the routes.
    private struct Gate: HTTPMiddleware {
        func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
            if request.query.first("blocked") != nil { return responder.send(.text("blocked", status: 403)) }
            next(request, responder)
        }
    }

    private func scopedRouter() -> Router {
        var router = Router(fallback: { request in .text("file \(request.path)") })
        router.get("/api/items") { _ in .text("list") }
        router.get("/healthz") { _ in .text("ok") }
        router.scope("/api", middleware: [Tracer(name: "outer"), Gate(), Tracer(name: "inner")],
                     notFound: { request in .text("no endpoint \(request.path)", status: 404) })
        return router
    }

    func testAScopesMiddlewareRunsInOrderAroundItsRoutesAndItsNotFound() {
        let router = scopedRouter()
        let routed = router.respond(to: request("GET", "/api/items"))
        XCTAssertEqual(bodyText(routed), "list")
        XCTAssertEqual(routed.headers.values(for: "X-Trace"), ["inner", "outer"], "the first middleware is outermost")
        let unrouted = router.respond(to: request("GET", "/api/nothing"))
        XCTAssertEqual(unrouted.status, 404)
        XCTAssertEqual(bodyText(unrouted), "no endpoint /api/nothing")
        XCTAssertEqual(unrouted.headers.values(for: "X-Trace"), ["inner", "outer"])
        let refused = router.respond(to: request("DELETE", "/api/items"))
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers.values(for: "X-Trace"), ["inner", "outer"], "a 405 passes the middleware too")
    }

    func testAMiddlewareMayAnswerWithoutTheRoutes() {
        let blocked = scopedRouter().respond(to: request("GET", "/api/items?blocked"))
        XCTAssertEqual(blocked.status, 403)
        XCTAssertEqual(blocked.headers.values(for: "X-Trace"), ["outer"], "only the middleware before it saw the answer")
    }

    func testPathsOutsideTheScopeSkipItsMiddleware() {
        let router = scopedRouter()
        for (path, text) in [("/healthz", "ok"), ("/apis", "file /apis"), ("/index.html", "file /index.html")] {
            let response = router.respond(to: request("GET", path))
            XCTAssertEqual(bodyText(response), text, path)
            XCTAssertEqual(response.headers.values(for: "X-Trace"), [], path)
        }
        XCTAssertEqual(router.respond(to: request("GET", "/api")).status, 404, "the prefix itself is in the scope")
    }
}

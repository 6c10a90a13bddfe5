import Foundation
import XCTest
@testable import PulldownHTTP

final class ProblemTests: XCTestCase {
    private func object(_ response: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func testProblemIsProblemJSONWithTypeTitleStatusDetail() throws {
        let response = Problem.notFound("Nothing is served at /x.").response
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
        let body = try object(response)
        XCTAssertEqual(Set(body.keys), ["type", "title", "status", "detail"])
        XCTAssertEqual(body["type"] as? String, "about:blank")
        XCTAssertEqual(body["title"] as? String, "Not Found")
        XCTAssertEqual(body["status"] as? Int, 404)
        XCTAssertEqual(body["detail"] as? String, "Nothing is served at /x.")
    }

    func testStatusInTheBodyMatchesTheResponseStatus() throws {
        for problem in [Problem.badRequest("b"), .notFound("n"), .methodNotAllowed("PUT", allowed: ["GET"]),
                        .contentTooLarge(limit: 10)] {
            let response = problem.response
            XCTAssertEqual(try object(response)["status"] as? Int, response.status)
        }
        XCTAssertEqual(Problem.badRequest("b").status, 400)
        XCTAssertEqual(Problem.contentTooLarge(limit: 65536).status, 413)
    }

    func testInvalidParamsAreListedWithNameAndReason() throws {
        let problem = Problem.badRequest("bad limit", invalidParams: [
            .init(name: "limit", reason: "must be from 1 to 100"),
            .init(name: "before", reason: "must be an id"),
        ])
        let params = try XCTUnwrap(try object(problem.response)["invalid_params"] as? [[String: String]])
        XCTAssertEqual(params, [["name": "limit", "reason": "must be from 1 to 100"],
                                ["name": "before", "reason": "must be an id"]])
    }

    func testNoInvalidParamsKeyWhenThereAreNone() throws {
        XCTAssertNil(try object(Problem.badRequest("x").response)["invalid_params"])
    }

    func testMethodNotAllowedCarriesTheAllowHeader() {
        let response = Problem.methodNotAllowed("DELETE", allowed: ["GET", "HEAD", "POST"]).response
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["Allow"], "GET, HEAD, POST")
    }

    func testDetailWithHostileTextStaysValidJSON() throws {
        let response = Problem.notFound("Nothing at /\"</script>\n").response
        XCTAssertEqual(try object(response)["detail"] as? String, "Nothing at /\"</script>\n")
        XCTAssertFalse(String(decoding: response.body, as: UTF8.self).contains("</script>"))
    }

    func testExtraHeadersSurviveAndContentTypeCannotBeOverridden() {
        let problem = Problem(status: 503, title: "Service Unavailable", detail: "later",
                              headers: HTTPHeaders([("Retry-After", "1"), ("Content-Type", "text/plain")]))
        let response = problem.response
        XCTAssertEqual(response.headers["Retry-After"], "1")
        XCTAssertEqual(response.headers.values(for: "Content-Type"), ["application/problem+json"])
    }

    func testEveryProblemIsNoStoreUnlessItSaysHowItMayBeKept() {
        for problem in [Problem.badRequest("b"), .notFound("n"), .methodNotAllowed("PUT", allowed: ["GET"]),
                        .contentTooLarge(limit: 10), Problem(status: 503, title: "Service Unavailable", detail: "later")] {
            XCTAssertEqual(problem.response.headers.values(for: "Cache-Control"), ["no-store"], "\(problem.status)")
        }
        var revalidated = Problem.notFound("It may exist later.")
        revalidated.headers.add("Cache-Control", "no-cache")
        XCTAssertEqual(revalidated.response.headers.values(for: "Cache-Control"), ["no-cache"])
    }
}

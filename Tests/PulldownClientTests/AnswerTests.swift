import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import PulldownClient

/// Reading what the server answers: links, problems, items, events, and the validators kept.
final class AnswerTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:8080/api/items?limit=10")!

    func testTheNextLinkIsResolvedAgainstTheURLAskedWhetherAPathOrAnAbsoluteURL() {
        XCTAssertEqual(LinkHeader.target(#"</api/items?limit=10&before=41&feed=3bd9c0672efc6c01>; rel="next""#,
                                         relation: "next", base: base)?.absoluteString,
                       "http://127.0.0.1:8080/api/items?limit=10&before=41&feed=3bd9c0672efc6c01")
        XCTAssertEqual(LinkHeader.target(#"<https://feed.example/api/items?before=9>; rel="next""#,
                                         relation: "next", base: base)?.absoluteString,
                       "https://feed.example/api/items?before=9")
    }

    func testTheRelationIsFoundAmongSeveralLinksAndSeveralRelations() {
        let header = #"</a>; rel="prev"; title="a, b", </b>; rel="first NEXT""#
        XCTAssertEqual(LinkHeader.target(header, relation: "next", base: base)?.path, "/b")
        XCTAssertNil(LinkHeader.target(#"</a>; rel="prev""#, relation: "next", base: base))
        XCTAssertNil(LinkHeader.target("", relation: "next", base: base))
    }

    func testAProblemCarriesItsStatusItsInvalidParamsAndItsRetryAfter() {
        let body = Data(#"{"type":"about:blank","title":"Bad Request","status":400,"detail":"The query has invalid parameters.","invalid_params":[{"name":"limit","reason":"must be an integer from 1 to 100"}]}"#.utf8)
        let problem = ProblemDetails(status: 400, body: body, retryAfter: nil)
        XCTAssertEqual(problem.status, 400)
        XCTAssertEqual(problem.invalidParams, [ProblemDetails.InvalidParam(name: "limit", reason: "must be an integer from 1 to 100")])
        XCTAssertNil(problem.retryAfter)
        XCTAssertFalse(problem.isFeedChanged)
        XCTAssertEqual(ProblemDetails(status: 503, body: Data("busy".utf8), retryAfter: "1").retryAfter, .seconds(1),
                       "a body that is no problem still gives the status and the wait")
    }

    func testRetryAfterAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000) // Tue, 14 Nov 2023 22:13:20 GMT
        XCTAssertEqual(ProblemDetails.delay("Tue, 14 Nov 2023 22:13:50 GMT", now: now), .seconds(30))
        XCTAssertEqual(ProblemDetails.delay("Tue, 14 Nov 2023 22:00:00 GMT", now: now), .zero, "a date past is no wait")
        XCTAssertNil(ProblemDetails.delay("soon", now: now))
    }

    func testAFeedChangedProblemSaysSo() {
        let body = Data(#"{"type":"tag:pulldown,2026:feed-changed","title":"Gone","status":410,"detail":"start again"}"#.utf8)
        XCTAssertTrue(ProblemDetails(status: 410, body: body, retryAfter: nil).isFeedChanged)
        XCTAssertFalse(ProblemDetails(status: 410).isFeedChanged, "a 410 of another kind")
    }

    func testAnItemKeepsItsOwnFieldsAndMembersThisVersionDoesNotKnow() throws {
        let json = #"{"id":17,"title":"T","body":"","author":"A","createdAt":"2026-12-04T15:01:40Z","avatar":"/media/demo/avatar-27.svg","image":{"url":"/media/demo/image-17.png","width":750,"height":250,"alt":"A picture"},"likes":3,"user":{"handle":"@ana"},"version":2}"#
        let item = try Answer.decoder(base: base).decode(Item.self, from: Data(json.utf8))
        XCTAssertEqual(item.id, 17)
        XCTAssertEqual(item.createdAt, Date(timeIntervalSince1970: 1_796_396_500))
        XCTAssertEqual(item.avatar?.absoluteString, "http://127.0.0.1:8080/media/demo/avatar-27.svg")
        XCTAssertEqual(item.image, ItemImage(url: URL(string: "http://127.0.0.1:8080/media/demo/image-17.png")!,
                                             width: 750, height: 250, alt: "A picture"))
        XCTAssertEqual(item.fields, ["likes": .integer(3), "user": .object(["handle": .string("@ana")]), "version": .integer(2)])
    }

    func testAnAbsolutePictureURLStaysAsItIsAndABadPictureLeavesTheItemReadable() throws {
        let json = #"{"id":1,"title":"T","body":"","author":"A","createdAt":"2026-12-04T15:01:40Z","avatar":"https://cdn.example/a.png","image":{"url":"/p.png"}}"#
        let item = try Answer.decoder(base: base).decode(Item.self, from: Data(json.utf8))
        XCTAssertEqual(item.avatar?.absoluteString, "https://cdn.example/a.png")
        XCTAssertNil(item.image, "a picture without its size")
    }

    func testAnEventIsTypedByItsNameAndOneThatCannotBeReadComesAsItCame() {
        let items = ServerSentEvent(name: "items", data: #"{"items":[{"id":21,"title":"T","body":"","author":"A","createdAt":"2026-12-04T15:01:40Z"}],"gap":false}"#, lastEventID: "21")
        guard case .items(let batch) = LiveEvent(items, base: base) else { return XCTFail("not items") }
        XCTAssertEqual(batch.items.map(\.id), [21])
        XCTAssertFalse(batch.gap)
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "reset", data: #"{"newestId":103}"#, lastEventID: "103"), base: base),
                       .reset(newestID: 103))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "reset", data: #"{"newestId":null}"#, lastEventID: "0"), base: base),
                       .reset(newestID: nil))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "demo", data: #"{"delayMs":0,"jitterMs":0,"failRate":1,"newItemsEvery":5}"#, lastEventID: ""), base: base),
                       .demo(DemoKnobs(delayMs: 0, jitterMs: 0, failRate: 1, newItemsEvery: 5)))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "updated", data: "{}", lastEventID: "9"), base: base),
                       .unknown(name: "updated", data: "{}"))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "items", data: "{", lastEventID: "9"), base: base),
                       .unknown(name: "items", data: "{"))
    }

    func testOwnFieldsGoOutAsGivenBesideTheTitle() throws {
        let item = NewItem(title: "Hello", fields: ["likes": .integer(3), "tags": .array([.string("a")])])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(item)) as? NSDictionary
        XCTAssertEqual(json, ["title": "Hello", "likes": 3, "tags": ["a"]])
    }

    func testTheValidatorsKeptAreTheLatestOnes() throws {
        var cache = ETagCache(capacity: 2)
        let answers = (1...3).map { answer("http://h/\($0)", etag: "\"\($0)\"") }
        answers.forEach { cache.keep($0) }
        XCTAssertNil(cache.answer(for: answers[0].url), "the oldest went")
        XCTAssertEqual(cache.answer(for: answers[2].url)?.headers["etag"], "\"3\"")
        cache.keep(answer("http://h/4", etag: nil))
        XCTAssertNil(cache.answer(for: URL(string: "http://h/4")!), "an answer without a validator is not kept")
        XCTAssertNotNil(cache.answer(for: answers[1].url))
    }

    private func answer(_ url: String, etag: String?) -> Answer {
        let url = URL(string: url)!
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: etag.map { ["ETag": $0] } ?? [:])!
        return Answer(url: url, response: response, body: Data())
    }
}

import Foundation
import PulldownDoctor
import PulldownFeed
@testable import PulldownHTTP
import PulldownTesting
import XCTest
@testable import PulldownApp

/// The doctor reads back what the API wrote: these pin the places `AnswerReading` looks at to
/// what `ResponseJSON` writes, and the asks to the API's own parsers.
final class DoctorObservationTests: XCTestCase {
    private let feed = FeedID("0123456789abcdef")!
    private let base = "http://127.0.0.1:8080"

    private func item(_ id: Int64, fields: String = "{}") -> Item {
        Item(id: id, title: "t", body: "b", author: "a", createdAt: Date(timeIntervalSince1970: 0), userFields: fields)
    }

    func testAPageIsReadForItsNewestIdHasMoreFeedAndNextPage() {
        // An item's own fields may use the same names: the page's own come last.
        let page = ItemPage(items: [item(42, fields: #"{"hasMore":false,"feed":"ffffffffffffffff","x":{"id":7}}"#), item(41)],
                            direction: .older, hasMore: true)
        var response = HTTPResponse.json(ResponseJSON.page(page, limit: 2, feed: feed, sequence: 42, base: base))
        response.headers.add("Link", API.nextLink(page: page, limit: 2, feed: feed, base: base)!)
        let answer = AnswerReading.answer(response, isList: true)
        XCTAssertEqual(answer, .init(hasMore: true, newestID: 42, nextBefore: 41, feed: 0x0123456789abcdef, changes: 42, items: 2))
    }

    func testAPageWithMoreToComeIsCountedForItsItems() {
        let count = { (items: [Item], hasMore: Bool) in
            let page = ItemPage(items: items, direction: .older, hasMore: hasMore)
            return AnswerReading.answer(.json(ResponseJSON.page(page, limit: 10, feed: self.feed, sequence: 9, base: self.base)),
                                        isList: true).items
        }
        XCTAssertEqual(count([item(9), item(7), item(3)], true), 3)
        XCTAssertEqual(count([], true), 0, "every place on it deleted")
        XCTAssertNil(count([item(2), item(1)], false), "no more to come: never short")
        // An own field holding objects whose first key is id: counted as more, never fewer.
        XCTAssertEqual(count([item(9, fields: #"{"tags":[{"id":1},{"id":2}]}"#), item(8)], true), 3)
    }

    func testAnEmptyLastPageHasNoNewestIdAndNoNextPage() {
        let page = ItemPage(items: [], direction: .older, hasMore: false)
        let answer = AnswerReading.answer(.json(ResponseJSON.page(page, limit: 10, feed: feed, sequence: 0, base: base)), isList: true)
        XCTAssertEqual(answer, .init(hasMore: false, newestID: nil, feed: 0x0123456789abcdef, changes: 0))
    }

    func testARefreshIsReadForItsGap() {
        let result = RefreshResult(items: [item(60)], gap: true, lastUpdated: Date(timeIntervalSince1970: 0), feedID: feed)
        let answer = AnswerReading.answer(.json(ResponseJSON.refresh(result, base: base)), isList: true)
        XCTAssertEqual(answer, .init(gap: true, newestID: 60, feed: 0x0123456789abcdef, changes: 0, listedChanges: false))
    }

    func testARefreshIsReadForTheSequenceItReflectsAndWhetherItListedChanges() {
        let edited = Change(sequence: 63, kind: .updated(item(30, fields: #"{"feed":"ffffffffffffffff","changes":1}"#)))
        let result = RefreshResult(items: [item(61)], gap: false, lastUpdated: Date(timeIntervalSince1970: 0), feedID: feed,
                                   changes: [edited, Change(sequence: 64, kind: .deleted(29))], sequence: 64)
        let answer = AnswerReading.answer(.json(ResponseJSON.refresh(result, base: base)), isList: true)
        XCTAssertEqual(answer, .init(gap: false, newestID: 61, feed: 0x0123456789abcdef, changes: 64, listedChanges: true),
                       "the refresh's own members, not those of an item it lists")
    }

    func testAFailureIsReadForItsRetryAfterOnly() {
        var problem = Problem(status: 503, title: "Service Unavailable", detail: "x")
        problem.headers.add("Retry-After", "3")
        XCTAssertEqual(AnswerReading.answer(problem.response, isList: true), .init(retryAfter: 3))
    }

    private func ask(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
                     status: Int = 200) -> ObservedRequest.Ask {
        let request = HTTPRequest(method: method, rawTarget: target, headers: HTTPHeaders(headers), body: Array(body.utf8))!
        return Observation.ask(request, status: status, pageSize: 10)
    }

    func testAsksAreReadAsTheEndpointsReadThem() {
        XCTAssertEqual(ask("GET", "/api/items"), .page(.newest, limit: 10))
        XCTAssertEqual(ask("GET", "/api/items?limit=5&before=41&feed=0123456789abcdef&_=1"), .page(.before(41), limit: 5))
        XCTAssertEqual(ask("GET", "/api/items?after=3"), .page(.after(3), limit: 10))
        XCTAssertEqual(ask("GET", "/api/items/7?feed=0123456789abcdef"), .item(7))
        XCTAssertEqual(ask("POST", "/api/refresh", headers: [("Content-Type", "application/json")], body: #"{"after": 50}"#),
                       .refresh(after: 50))
        XCTAssertEqual(ask("POST", "/api/refresh"), .refresh(after: nil))
        XCTAssertEqual(ask("GET", "/api/events?after=4", headers: [("Last-Event-ID", "9")]), .stream(lastEventID: 9, after: 4))
        XCTAssertEqual(ask("GET", "/api/events"), .stream(lastEventID: nil, after: nil))
    }

    func testAPageTheAPITookIsReadAsItsOwnParserReadsIt() throws {
        for query in ["", "?limit=5", "?before=41", "?after=3&limit=7", "?limit=5&before=41&feed=0123456789abcdef&_=1&t=x"] {
            let request = try XCTUnwrap(HTTPRequest(method: "GET", rawTarget: "/api/items" + query))
            let parsed = try ItemsQuery.parse(request.query, defaultLimit: 10)
            let cursor: ObservedRequest.Cursor? = switch parsed.cursor {
            case .newest: .newest
            case .before(let id): .before(id)
            case .after(let id): .after(id)
            case .around, .between: nil
            }
            XCTAssertEqual(Observation.ask(request, status: 200, pageSize: 10), cursor.map { .page($0, limit: parsed.limit) } ?? .other, query)
        }
    }

    func testAPageAroundAnItemOrWithinARangeIsNoStepOfAWalk() {
        XCTAssertEqual(ask("GET", "/api/items?around=5&limit=3"), .other)
        XCTAssertEqual(ask("GET", "/api/items?after=2&before=9"), .other)
    }

    func testAnythingTheRulesLeaveAloneOrTheEndpointRefusesIsOther() {
        XCTAssertEqual(ask("HEAD", "/api/items"), .other)
        XCTAssertEqual(ask("GET", "/api/items?limit=0", status: 400), .other)
        XCTAssertEqual(ask("GET", "/api/items/x"), .other)
        XCTAssertEqual(ask("POST", "/api/items"), .other)
        XCTAssertEqual(ask("GET", "/api/events", headers: [("Last-Event-ID", "x")]), .other)
        XCTAssertEqual(ask("GET", "/api/session"), .other)
    }

    func testAClientIsItsSessionWhenItSendsOneElseItsAddressAndUserAgent() {
        let peer = PeerAddress("10.0.0.7")
        let bare = HTTPRequest(method: "GET", rawTarget: "/api/items", headers: HTTPHeaders([("User-Agent", "app/1")]), peer: peer)!
        let byCookie = HTTPRequest(method: "GET", rawTarget: "/api/items",
                                   headers: HTTPHeaders([("Cookie", "a=b; pulldown_session=abcdef0123456789"), ("User-Agent", "app/1")]), peer: peer)!
        let byHeader = HTTPRequest(method: "GET", rawTarget: "/api/items",
                                   headers: HTTPHeaders([("X-Session-Id", "abcdef0123456789"), ("User-Agent", "other")]))!
        XCTAssertEqual(Observation.caller(of: bare), Caller(session: nil, address: "10.0.0.7", userAgent: "app/1"))
        XCTAssertEqual([Observation.caller(of: bare).key].map { [$0.session, $0.address, $0.userAgent] }, [[nil, "10.0.0.7", "app/1"]])
        XCTAssertEqual(Observation.caller(of: byCookie).key, Observation.caller(of: byHeader).key)
        XCTAssertEqual(Observation.caller(of: byHeader).session, "abcdef01")
    }

    func testTheLogLineIsOneLineThatNamesTheClientTheRuleAndTheRequest() {
        var book = ClientBook()
        let caller = Caller(session: nil, address: "127.0.0.1", userAgent: "curl/8.5.0")
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let newest = ObservedRequest(method: "GET", target: "/api/items", ask: .page(.newest, limit: 10), status: 200,
                                     answer: .init(hasMore: true, newestID: 5, feed: 1), started: at, ended: at)
        book.record(newest, from: caller)
        var again = newest
        (again.started, again.ended) = (at + 5, at + 5)
        let recorded = book.record(again, from: caller)
        XCTAssertEqual(ClientDoctor.logLine(recorded.finding!, client: recorded.client!),
                       "doctor: client \(recorded.client!.id) (127.0.0.1 curl/8.5.0): poll-without-validator: GET /api/items 200: "
                       + "Polled the newest page without If-None-Match")
    }
}

/// The doctor examines at most `perSecond` exchanges a second and counts the rest.
final class ClientDoctorBudgetTests: XCTestCase {
    func testPastItsBudgetASecondItSkipsAndCountsThenStartsAgain() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000.5))
        let doctor = ClientDoctor(clock: clock, pageSize: 10, log: false, heartbeatSeconds: 3600)
        defer { doctor.stop() }
        let request = try XCTUnwrap(HTTPRequest(method: "GET", rawTarget: "/api/items/1", headers: HTTPHeaders([("User-Agent", "flood")])))
        let send = {
            if let started = doctor.begin() { doctor.record(request, HTTPResponse(status: 200), started: started) }
        }
        for _ in 0...ClientDoctor.perSecond { send() }
        XCTAssertEqual(doctor.skipped, 1)
        clock.advance(by: 1)
        send()
        XCTAssertEqual(doctor.skipped, 1)
        XCTAssertEqual(doctor.clients.first?.requests, Int(ClientDoctor.perSecond) + 1)
    }
}

extension ClientDoctorBudgetTests {
    /// Under `--clock manual` the demo's time may stand still while requests come: the budget's
    /// seconds go by on the wall clock, the timelines' on the demo clock.
    func testUnderAManualDemoClockTheBudgetCountsWallClockSeconds() throws {
        let demo = DemoClock(manualFrom: Date(timeIntervalSince1970: 1_800_000_000))
        let wall = ManualClock(Date(timeIntervalSince1970: 1_900_000_000.5))
        let doctor = ClientDoctor(clock: demo, budgetClock: wall, pageSize: 10, log: false, heartbeatSeconds: 3600)
        defer { doctor.stop() }
        let request = try XCTUnwrap(HTTPRequest(method: "GET", rawTarget: "/api/items/1", headers: HTTPHeaders([("User-Agent", "flood")])))
        let send = {
            if let started = doctor.begin() { doctor.record(request, HTTPResponse(status: 200), started: started) }
        }
        for _ in 0...ClientDoctor.perSecond { send() }
        XCTAssertEqual(doctor.skipped, 1)
        wall.advance(by: 1)   // the demo clock still stands
        send()
        XCTAssertEqual(doctor.skipped, 1)
        XCTAssertEqual(doctor.clients.first?.lastSeen, demo.now(), "the timeline on the demo clock")
    }
}

import XCTest
@testable import PulldownDoctor

final class ClientBookTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func request(_ n: Int, _ ask: ObservedRequest.Ask = .newest, validator: Bool = true) -> ObservedRequest {
        let at = start + Double(n) * 2
        return ObservedRequest(method: "GET", target: "/api/items?n=\(n)", ask: ask, sentValidator: validator, status: 200,
                               answer: .init(hasMore: true, newestID: 50, feed: 1), started: at, ended: at + 0.01)
    }

    private func caller(_ n: Int) -> Caller {
        Caller(session: nil, address: "10.0.0.\(n % 250)", userAgent: "client \(n)")
    }

    func testAtMostMaxClientsAreKeptAndTheOneSeenLongestAgoGoes() {
        var book = ClientBook()
        for n in 0..<ClientBook.maxClients { book.record(request(n), from: caller(n)) }
        book.record(request(100), from: caller(0))           // seen again: now the most recent
        book.record(request(101), from: caller(1000))        // a new one: client 1 goes
        XCTAssertEqual(book.count, ClientBook.maxClients)
        let kept = Set(book.clientsByRecency.map(\.caller.userAgent))
        XCTAssertTrue(kept.contains("client 0"))
        XCTAssertTrue(kept.contains("client 1000"))
        XCTAssertFalse(kept.contains("client 1"))
        XCTAssertEqual(book.clientsByRecency.first?.caller.userAgent, "client 1000")
        XCTAssertNil(book.client(id: ClientBook.id(of: caller(1).key)))
    }

    func testATimelineKeepsTheLastMaxRequestsAndCountsThemAll() {
        var book = ClientBook()
        for n in 0..<(ClientBook.maxRequests + 50) { book.record(request(n), from: caller(7)) }
        let client = try! XCTUnwrap(book.client(id: ClientBook.id(of: caller(7).key)))
        XCTAssertEqual(client.requests, ClientBook.maxRequests + 50)
        XCTAssertEqual(client.timeline.count, ClientBook.maxRequests)
        XCTAssertEqual(client.timeline.elements.first?.request.target, "/api/items?n=50")
        XCTAssertEqual(client.timeline.elements.last?.request.target, "/api/items?n=249")
    }

    func testAFindingCountsItsOccurrencesKeepsTheLatestAndMarksTheTimeline() {
        var book = ClientBook()
        let first = book.record(request(0, validator: false), from: caller(3))
        XCTAssertNil(first.finding)
        let second = book.record(request(1, validator: false), from: caller(3))
        XCTAssertEqual(second.finding?.rule.name, "poll-without-validator")
        XCTAssertTrue(second.isNew)
        let third = book.record(request(2, validator: false), from: caller(3))
        XCTAssertFalse(third.isNew)
        XCTAssertEqual(third.finding?.count, 2)
        XCTAssertEqual(third.finding?.example.target, "/api/items?n=2")
        XCTAssertEqual(third.finding?.because?.target, "/api/items?n=1")
        XCTAssertNil(first.client, "no finding, no copy of the client")
        XCTAssertEqual(third.client?.findings.count, 1)
        XCTAssertEqual(third.client?.timeline.elements.map { $0.rule?.name }, [nil, "poll-without-validator", "poll-without-validator"])
    }

    func testIdsAreShortStableAndDistinct() {
        let key = { (session: String) in Caller(session: session, address: "a", userAgent: "u").key }
        XCTAssertEqual(ClientBook.id(of: key("abc")).count, 12)
        XCTAssertEqual(ClientBook.id(of: key("abc")), ClientBook.id(of: Caller(session: "abc", address: "b", userAgent: "v").key))
        XCTAssertNotEqual(ClientBook.id(of: key("abc")), ClientBook.id(of: key("abd")))
    }

    func testALongTargetOrUserAgentIsCutAtACharacter() {
        let long = "/api/items?q=" + String(repeating: "é", count: 200)
        let kept = ObservedRequest(method: "GET", target: long, ask: .other, status: 200, started: start, ended: start).target
        XCTAssertLessThanOrEqual(kept.utf8.count, ObservedRequest.maxTargetBytes)
        XCTAssertTrue(kept.hasSuffix("é…"))
        XCTAssertLessThanOrEqual(Caller(session: nil, address: "a", userAgent: String(repeating: "u", count: 999))
            .userAgent.utf8.count, Caller.maxUserAgentBytes)
    }

    func testRingKeepsTheLastElementsInOrder() {
        var ring = Ring<Int>(capacity: 3)
        for n in 1...7 { ring.append(n) }
        XCTAssertEqual(ring.elements, [5, 6, 7])
        XCTAssertEqual(ring.count, 3)
    }
}

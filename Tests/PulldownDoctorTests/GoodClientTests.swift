import XCTest
@testable import PulldownDoctor

/// A client that does everything right gets no finding.
final class GoodClientTests: XCTestCase {
    func testPagingRefreshingPollingReconnectingAndWaitingFireNothing() {
        var c = ScriptedClient(feed: FakeFeed(newest: 35))
        // Paging to the end, and no further.
        c.send(.newest)
        c.send(.before(26), pause: 0.5)
        c.send(.before(16), pause: 0.5)
        c.send(.before(6), pause: 0.5)
        // A refresh from the newest item held.
        c.feed.newest = 38
        c.send(.refresh(after: 35), pause: 2)
        // Polling with the tag.
        c.send(.newest, validator: true, pause: 2)
        c.send(.newest, validator: true, pause: 2)
        // The stream from the newest item, and a reconnect from the last event.
        c.send(.stream(lastEventID: nil, after: 38), takes: 10)
        c.send(.stream(lastEventID: 38, after: 38), pause: 1, takes: 10)
        // A 503 waited out.
        c.send(.item(5), status: 503, retryAfter: 1)
        c.send(.item(5), pause: 1.2)
        // A gap: start over from the answer's items, and load the page under them.
        c.feed.newest = 70
        c.send(.refresh(after: 38), pause: 2)
        c.send(.before(61))
        // A windowed list reading back items it let go.
        c.send(.after(30, limit: 50), pause: 2)
        c.send(.before(40, limit: 50), pause: 2)
        XCTAssertEqual(c.fired, [])
    }

    func testEveryRuleIsExaminedInTheOrderOfRulesAll() {
        // Each rule's own client fires it: the examination calls every rule of Rules.all.
        XCTAssertEqual(Rules.all.count, 11)
        var c = ScriptedClient(feed: FakeFeed(newest: 35))
        c.send(.newest)
        c.send(.stream)
        c.send(.newest, pause: 2)
        XCTAssertEqual(c.fired, ["stream-without-cursor", "poll-without-validator"])
    }

    func testTheRulesAreNamedOnceEachWithTitleAndAdvice() {
        let names = Rules.all.map { $0.name }
        XCTAssertEqual(Set(names).count, names.count)
        for rule in Rules.all {
            XCTAssertTrue(rule.name.allSatisfy { $0.isLowercase || $0 == "-" }, rule.name)
            XCTAssertFalse(rule.title.isEmpty, rule.name)
            XCTAssertGreaterThan(rule.advice.count, 80, rule.name)
            XCTAssertEqual(Rules.named(rule.name)?.name, rule.name)
        }
    }
}

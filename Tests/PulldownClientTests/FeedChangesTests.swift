import Foundation
import XCTest
@testable import PulldownClient

/// Items edited and deleted under the reader, and the paging forms around them: the cases of
/// Tests/js/feed-state.test.mjs and live-state.test.mjs about changes, and how the answers that
/// carry them are read.
final class FeedChangesTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:8080/api/items")!

    func testAPageWhoseItemsWereAllDeletedSaysWhereToGoOnAndAShortPageIsNotTheEnd() {
        var s = FeedState()
        _ = s.nextPage()
        s.add(items(30, 21), hasMore: true, next: 21)
        XCTAssertEqual(s.nextPage(), .before(21))
        s.add([], hasMore: true, next: 11) // places 20..11: every item on them deleted
        XCTAssertEqual(s.end, .more, "an empty page with more to come is not the end")
        XCTAssertEqual(s.nextPage(), .before(11), "not 21 again")
        s.add(items(10, 8), hasMore: true, next: 8) // short: 3 of 10
        XCTAssertEqual(s.nextPage(), .before(8))
        s.add(items(7, 1), hasMore: false, next: nil)
        XCTAssertEqual(s.items.map(\.id), (items(30, 21) + items(10, 1)).map(\.id))
        XCTAssertNil(s.nextPage())
        XCTAssertEqual(s.end, .end)
    }

    func testARefreshAppliesTheChangesItBringsAndRemembersWhereTheSequenceIs() {
        var s = FeedState()
        _ = s.nextPage()
        s.saw(30)
        s.add(items(30, 21), hasMore: true)
        XCTAssertEqual(s.beginRefresh(), 30)
        let edited = Item(id: 29, title: "edited", createdAt: Date(timeIntervalSince1970: 0))
        let added = s.refreshed(items(32, 31), gap: false, changed: [.updated(edited, sequence: 33), .deleted(id: 28, sequence: 35)],
                                changes: 35)
        XCTAssertEqual(added, 2)
        XCTAssertEqual(s.changes, 35)
        XCTAssertEqual(s.items[s.index(of: 29)!].title, "edited", "replaced in its place")
        XCTAssertNil(s.index(of: 28))
        XCTAssertEqual(s.items.prefix(5).map(\.id), [32, 31, 30, 29, 27])
        s.saw(34)
        XCTAssertEqual(s.changes, 35, "the sequence never goes back")
    }

    func testAGapIgnoresTheChangesTheItemsHeldAreGone() {
        var s = FeedState()
        _ = s.nextPage()
        s.add(items(30, 21), hasMore: true)
        _ = s.beginRefresh()
        XCTAssertEqual(s.refreshed(items(90, 81), gap: true, changed: [.deleted(id: 85, sequence: 91)], changes: 91), 10)
        XCTAssertEqual(s.items.map(\.id), items(90, 81).map(\.id), "the newest page as given")
        XCTAssertEqual(s.changes, 91)
    }

    func testStreamChangesApplyOnlyToItemsHeldAndAReplacedItemKeepsItsPlace() {
        var s = FeedState()
        _ = s.nextPage()
        s.add(items(10, 1), hasMore: false)
        let edited = Item(id: 5, title: "now", createdAt: Date(timeIntervalSince1970: 0))
        XCTAssertTrue(s.apply(.updated(edited, sequence: 11)))
        XCTAssertEqual(s.items[5], edited)
        XCTAssertFalse(s.apply(.updated(Item(id: 50, title: "elsewhere", createdAt: Date()), sequence: 12)), "not held: not added")
        XCTAssertTrue(s.apply(.deleted(id: 10, sequence: 13)))
        XCTAssertFalse(s.apply(.deleted(id: 10, sequence: 14)), "gone once")
        XCTAssertEqual(s.items.map(\.id), Array((1...9).reversed()))
        XCTAssertEqual(s.newest, 9, "a refresh then asks after 9: 10 is gone and cannot come back")
    }

    func testEditsAndDeletionsMoveWhereAStreamGoesOnFromAndADeletedItemWaitingLeavesThePill() {
        var s = LiveState()
        _ = s.shown(50, changes: 57)
        XCTAssertEqual(s.opening, 57, "from the sequence the feed reflects, past its newest id")
        XCTAssertEqual(s.arrived(ids: [58], gap: false, sequence: 58), LiveState.Pill(count: 1))
        XCTAssertEqual(s.changed(sequence: 59), LiveState.Pill(count: 1))
        XCTAssertEqual(s.opening, 59)
        XCTAssertEqual(s.changed(sequence: 60, deleted: 58), LiveState.Pill(count: 0), "deleted before it was shown")
        XCTAssertEqual(s.changed(sequence: 61, deleted: 12), LiveState.Pill(count: 0))
        XCTAssertEqual(s.opening, 61)
    }

    func testChangeEventsAreTypedWithTheirNumberAndExpiredAndScriptToo() {
        let item = #"{"id":30,"title":"Edited","body":"","author":"A","createdAt":"2026-12-04T15:01:40Z","version":2}"#
        guard case .changed(.updated(let edited, let sequence)) = LiveEvent(ServerSentEvent(name: "updated", data: item, lastEventID: "61"), base: base)
        else { return XCTFail("not an edit") }
        XCTAssertEqual(edited.title, "Edited")
        XCTAssertEqual(sequence, 61)
        XCTAssertEqual(edited.fields["version"], .integer(2))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "deleted", data: #"{"id":30}"#, lastEventID: "63"), base: base),
                       .changed(.deleted(id: 30, sequence: 63)))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "expired", data: #"{"changes":70}"#, lastEventID: "70"), base: base),
                       .expired(changes: 70))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "script", data: #"{"playing":true}"#, lastEventID: ""), base: base),
                       .script(.object(["playing": .bool(true)])))
        XCTAssertEqual(LiveEvent(ServerSentEvent(name: "deleted", data: #"{"id":30}"#, lastEventID: ""), base: base),
                       .unknown(name: "deleted", data: #"{"id":30}"#), "a change without its number cannot be placed")
        guard case .items(let batch) = LiveEvent(ServerSentEvent(name: "items", data: #"{"items":[],"gap":true}"#, lastEventID: "80"), base: base)
        else { return XCTFail("not items") }
        XCTAssertEqual(batch.sequence, 80, "the event's id")
    }

    func testARefreshReadsItsChangedListAndAPageItsCursorsAnchorAndRange() throws {
        let refresh = #"""
        {"items":[],"gap":false,"lastUpdated":"2026-12-04T15:01:40Z","feed":"f1","changes":63,
         "changed":[{"type":"updated","sequence":61,"item":{"id":29,"title":"T","createdAt":"2026-12-04T15:01:40Z"}},
                    {"type":"deleted","sequence":63,"id":30}]}
        """#
        let result = try Answer.decoder(base: base).decode(RefreshResult.self, from: Data(refresh.utf8))
        XCTAssertEqual(result.changed.map(\.itemID), [29, 30])
        XCTAssertEqual(result.changed.map(\.sequence), [61, 63])
        XCTAssertEqual(result.changes, 63)
        let old = #"{"items":[],"gap":false,"lastUpdated":"2026-12-04T15:01:40Z"}"#
        XCTAssertEqual(try Answer.decoder(base: base).decode(RefreshResult.self, from: Data(old.utf8)).changed, [],
                       "a server without changes")
        let around = #"{"items":[],"limit":5,"hasMore":true,"next":18,"prev":22,"anchor":{"id":20,"found":false},"feed":"f1","changes":50}"#
        let page = try JSONDecoder().decode(PageBody.self, from: Data(around.utf8))
        XCTAssertEqual(page.anchor, Page.Anchor(id: 20, found: false))
        XCTAssertEqual([page.next, page.prev, page.changes], [18, 22, 50])
        XCTAssertNil(page.rangeDone)
    }

    func testTheNewFormsAskAsTheServersLinksDo() {
        XCTAssertEqual(PageQuery.around(20, limit: 5).queryItems.map(\.description), ["limit=5", "around=20"])
        XCTAssertEqual(PageQuery.between(after: 30, before: 40, feed: FeedID(rawValue: "f1"), limit: 4).queryItems.map(\.description),
                       ["limit=4", "after=30", "before=40", "feed=f1"])
    }

    func testAnExpiredCursorSaysSo() {
        let body = Data(#"{"type":"tag:pulldown,2026:cursor-expired","title":"Gone","status":410}"#.utf8)
        let problem = ProblemDetails(status: 410, body: body, retryAfter: nil)
        XCTAssertTrue(problem.isCursorExpired)
        XCTAssertFalse(problem.isFeedChanged)
        XCTAssertFalse(ProblemDetails(status: 410).isCursorExpired)
    }
}

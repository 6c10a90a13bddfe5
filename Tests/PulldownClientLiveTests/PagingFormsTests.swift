import Foundation
import PulldownClient
import XCTest

/// The paging forms beyond `before` and `after` against a real server: a page around an item, a
/// range, the limit echoed, a count on request, short pages and expiring cursors on cue.
@MainActor
final class PagingFormsTests: XCTestCase {
    func testAPageAroundAnItemHoldsItMidPageWithLinksBothWays() async throws {
        let server = try await PulldownServer(seed: 50)
        let client = PulldownClient(baseURL: server.url)
        let page = try await client.page(.around(20, limit: 5))
        XCTAssertEqual(page.items.map(\.id), [22, 21, 20, 19, 18])
        XCTAssertEqual(page.anchor, Page.Anchor(id: 20, found: true))
        XCTAssertEqual(page.limit, 5)
        XCTAssertEqual([page.previousCursor, page.nextCursor], [22, 18])
        let feed = try XCTUnwrap(page.feed)
        XCTAssertEqual(page.previous?.query, "limit=5&after=22&feed=\(feed)")
        let newer = try await client.page(at: XCTUnwrap(page.previous)), older = try await client.page(at: XCTUnwrap(page.next))
        XCTAssertEqual(newer.items.map(\.id), [27, 26, 25, 24, 23])
        XCTAssertEqual(older.items.map(\.id), [17, 16, 15, 14, 13])
        try await client.delete(20)
        let gone = try await client.page(.around(20, limit: 5))
        XCTAssertEqual(gone.anchor, Page.Anchor(id: 20, found: false), "where it would be")
        XCTAssertEqual(gone.items.map(\.id), [22, 21, 19, 18])
        let top = try await client.page(.around(49, limit: 6))
        XCTAssertNil(top.previous, "nothing newer")
        XCTAssertNil(top.previousCursor)
    }

    func testARangeIsWalkedByItsLinksToExactlyTheItemsBetween() async throws {
        let server = try await PulldownServer(seed: 50)
        let client = PulldownClient(baseURL: server.url)
        try await client.delete(33)
        try await client.delete(34)
        var pages: [Page] = []
        for try await page in client.pages(.between(after: 30, before: 40, limit: 4)) { pages.append(page) }
        XCTAssertEqual(pages.map { $0.items.map(\.id) }, [[39, 38, 37, 36], [35, 32], [31]])
        XCTAssertEqual(pages.map(\.rangeDone), [false, false, true])
        XCTAssertEqual(pages.last?.hasMore, true, "the feed goes on below the range")
        XCTAssertNil(pages.last?.next)
        let plain = try await client.page(PageQuery(limit: 4))
        XCTAssertNil(plain.rangeDone, "only a range says")
    }

    func testEveryFormEchoesItsLimitAndACountComesOnlyWhenAsked() async throws {
        let server = try await PulldownServer(seed: 50)
        let client = PulldownClient(baseURL: server.url)
        try await client.delete(7)
        try await client.delete(8)
        for query in [PageQuery(limit: 7), .before(30, limit: 7), .after(10, limit: 7), .around(25, limit: 7),
                      .between(after: 5, before: 45, limit: 7)] {
            let page = try await client.page(query)
            XCTAssertEqual(page.limit, 7, "\(query)")
            XCTAssertNil(page.totalCount, "not asked: not counted")
        }
        let counted = try await client.page(PageQuery(.before(20), limit: 3, count: true))
        XCTAssertEqual(counted.totalCount, 48, "the live items")
        XCTAssertEqual(counted.items.map(\.id), [19, 18, 17])
        let again = try await client.page(PageQuery(.before(20), limit: 3, count: true))
        XCTAssertEqual(again.totalCount, 48, "a 304 keeps its count")
    }

    func testShortPagesAreNotTheEndForTheClientNorTheModel() async throws {
        let server = try await PulldownServer(["--short-pages", "1"], seed: 50)
        let client = PulldownClient(baseURL: server.url)
        var pages: [Page] = []
        for try await page in client.pages(PageQuery(limit: 10)) { pages.append(page) }
        XCTAssertEqual(pages.flatMap(\.items).map(\.id), Array((1...50).reversed()))
        XCTAssertTrue(pages.dropLast().allSatisfy { $0.hasMore && $0.items.count < 10 }, "short, and more to come")
        let model = FeedModel(client: client)
        while model.state.end == .more { await model.loadMore() }
        XCTAssertEqual(model.state.end, .end)
        XCTAssertEqual(model.items.map(\.id), Array((1...50).reversed()))
    }

    func testAnExpiredCursorIsATypedProblemAndABareOneStillWorks() async throws {
        let server = try await PulldownServer(["--cursor-ttl-seconds", "60"], seed: 50)
        let client = PulldownClient(baseURL: server.url)
        let newest = try await client.page(PageQuery(limit: 5))
        var link = try XCTUnwrap(URLComponents(url: XCTUnwrap(newest.next), resolvingAgainstBaseURL: false))
        let issued = try XCTUnwrap(link.queryItems?.first { $0.name == "issued" }?.value.flatMap { Int64($0) })
        let fresh = try await client.page(at: XCTUnwrap(link.url))
        XCTAssertEqual(fresh.items.map(\.id), [45, 44, 43, 42, 41], "a fresh cursor works")
        link.queryItems = link.queryItems?.map { $0.name == "issued" ? URLQueryItem(name: "issued", value: String(issued - 61)) : $0 }
        do {
            _ = try await client.page(at: XCTUnwrap(link.url))
            XCTFail("an expired cursor was served")
        } catch let problem as ProblemDetails {
            XCTAssertEqual(problem.status, 410)
            XCTAssertTrue(problem.isCursorExpired)
            XCTAssertFalse(problem.isFeedChanged)
        }
        let bare = try await client.page(.before(46, limit: 5))
        XCTAssertEqual(bare.items.map(\.id), [45, 44, 43, 42, 41], "a bare cursor never expires")
    }
}

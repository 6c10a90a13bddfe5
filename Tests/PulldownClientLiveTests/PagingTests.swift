import Foundation
import PulldownClient
import XCTest

/// Pages, refreshes, the session, validators and problems against a real server.
final class PagingTests: XCTestCase {
    func testTheWholeFeedOlderPageByPageByItsLinksEachItemOnce() async throws {
        let server = try await PulldownServer(seed: 35)
        let client = PulldownClient(baseURL: server.url)
        var pages: [Page] = []
        for try await page in client.pages(PageQuery(limit: 10)) { pages.append(page) }
        XCTAssertEqual(pages.flatMap(\.items).map(\.id), Array((1...35).reversed()))
        XCTAssertEqual(pages.map(\.items.count), [10, 10, 10, 5])
        let feed = try XCTUnwrap(pages[0].feed)
        XCTAssertEqual(Set(pages.compactMap(\.feed)), [feed], "one feed")
        XCTAssertEqual(pages[0].next?.query, "limit=10&before=26&feed=\(feed)", "the link names the feed")
        XCTAssertNil(pages.last?.next, "no link after the last page")
    }

    func testTheWholeFeedNewerFromTheStartByItsLinksEachItemOnce() async throws {
        let server = try await PulldownServer(seed: 35)
        let client = PulldownClient(baseURL: server.url)
        var pages: [Page] = []
        for try await page in client.pages(.after(0, limit: 10)) { pages.append(page) }
        XCTAssertEqual(pages.map { $0.items.map(\.id) },
                       [Array((1...10).reversed()), Array((11...20).reversed()), Array((21...30).reversed()),
                        Array((31...35).reversed())], "each page newest first, the pages walking newer")
        XCTAssertEqual(pages.map(\.hasMore), [true, true, true, false])
    }

    func testARefreshAfterPostsBringsThemWithoutAGapAndTheSessionIsKeptAcrossRequests() async throws {
        let server = try await PulldownServer(seed: 20)
        let client = PulldownClient(baseURL: server.url)
        let before = try await client.sessionState()
        XCTAssertNil(before.lastUpdated)
        let nothing = try await client.refresh(after: 20)
        XCTAssertEqual(nothing.items, [])
        let session = try XCTUnwrap(client.sessionID)
        var posted: [Int64] = []
        for title in ["one", "two", "three"] { posted.insert(try await client.post(NewItem(title: title)).id, at: 0) }
        let fresh = try await client.refresh(after: 20)
        XCTAssertEqual(fresh.items.map(\.id), posted)
        XCTAssertEqual(fresh.items.map(\.title), ["three", "two", "one"])
        XCTAssertFalse(fresh.gap)
        XCTAssertGreaterThanOrEqual(fresh.lastUpdated, nothing.lastUpdated)
        let after = try await client.sessionState()
        XCTAssertEqual(client.sessionID, session, "one session throughout")
        XCTAssertEqual(after.refreshCount, 2, "both refreshes were this session's")
        XCTAssertEqual(after.lastSeenId, posted[0])
        XCTAssertEqual(after.lastUpdated, fresh.lastUpdated)
    }

    func testASavedSessionCarriesLastUpdatedToANewClient() async throws {
        let server = try await PulldownServer(seed: 5)
        let first = PulldownClient(baseURL: server.url)
        let refreshed = try await first.refresh()
        let again = PulldownClient(baseURL: server.url, sessionID: first.sessionID)
        let state = try await again.sessionState()
        XCTAssertEqual(state.lastUpdated, refreshed.lastUpdated)
        XCTAssertEqual(state.lastSeenId, 5)
    }

    func testMoreNewItemsThanAPageAreAGap() async throws {
        let server = try await PulldownServer(seed: 5)
        let client = PulldownClient(baseURL: server.url)
        try await client.demo().addItems(count: 10)
        let full = try await client.refresh(after: 5)
        XCTAssertEqual(full.items.map(\.id), Array((6...15).reversed()))
        XCTAssertFalse(full.gap, "exactly a page: no gap")
        try await client.demo().addItems(count: 11)
        let gapped = try await client.refresh(after: 15)
        XCTAssertEqual(gapped.items.map(\.id), Array((17...26).reversed()), "the newest page of them")
        XCTAssertTrue(gapped.gap, "one more than a page: item 16 is missing")
    }

    func testAnUnchangedNewestPageIsA304AndThePageKept() async throws {
        let server = try await PulldownServer(seed: 12)
        let client = PulldownClient(baseURL: server.url)
        let first = try await client.page()
        XCTAssertFalse(first.notModified)
        XCTAssertNotNil(first.etag)
        let again = try await client.page()
        XCTAssertTrue(again.notModified, "the server answered 304")
        XCTAssertEqual(again.items, first.items)
        XCTAssertEqual(again.next, first.next, "its Link kept too")
        let item = try await client.post(NewItem(title: "news"))
        let changed = try await client.page()
        XCTAssertFalse(changed.notModified)
        XCTAssertEqual(changed.items.first?.id, item.id)
        XCTAssertNotEqual(changed.etag, first.etag)
    }

    func testABadParameterIsAProblemNamingIt() async throws {
        let server = try await PulldownServer(seed: 3)
        let client = PulldownClient(baseURL: server.url)
        do {
            _ = try await client.page(PageQuery(limit: 500))
            XCTFail("a page of 500")
        } catch let problem as ProblemDetails {
            XCTAssertEqual(problem.status, 400)
            XCTAssertEqual(problem.invalidParams.map(\.name), ["limit"])
            XCTAssertNil(problem.retryAfter)
        }
    }

    func testAFailingServerIsA503WithRetryAfterAndTheNextRequestIsServed() async throws {
        let server = try await PulldownServer(seed: 3)
        let client = PulldownClient(baseURL: server.url)
        try await client.demo().failNext(.refresh)
        do {
            _ = try await client.refresh()
            XCTFail("the fault was not taken")
        } catch let problem as ProblemDetails {
            XCTAssertEqual(problem.status, 503)
            XCTAssertEqual(problem.retryAfter, .seconds(1))
            XCTAssertFalse(problem.isFeedChanged)
        }
        let served = try await client.refresh()
        XCTAssertEqual(served.items.count, 3)
    }

    func testAPageOfAFeedSinceStartedOverIsFeedChanged() async throws {
        let server = try await PulldownServer(seed: 30)
        let client = PulldownClient(baseURL: server.url)
        let newest = try await client.page()
        try await client.demo().reset()
        do {
            _ = try await client.page(at: try XCTUnwrap(newest.next))
            XCTFail("a page of the old feed was served")
        } catch let problem as ProblemDetails {
            XCTAssertTrue(problem.isFeedChanged)
            XCTAssertEqual(problem.status, 410)
        }
        let started = try await client.page()
        XCTAssertNotEqual(started.feed, newest.feed, "the newest page names the new feed")
    }
}

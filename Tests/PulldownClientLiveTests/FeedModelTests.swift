import Foundation
import PulldownClient
import XCTest

/// FeedModel against a real server: what a screen built on it does, as the page does it.
@MainActor
final class FeedModelTests: XCTestCase {
    func testItPagesToTheEndCountsNewItemsRefreshesAndStartsOverAsThePageDoes() async throws {
        let server = try await PulldownServer(seed: 25)
        let client = PulldownClient(baseURL: server.url)
        let model = FeedModel(client: client)
        let returned = Happened()
        let running = Task {
            await model.run()
            returned.now()
        }
        defer { running.cancel() }
        try await until("the newest page") { model.items.count == 10 }
        XCTAssertNil(model.lastUpdated, "no refresh yet in this session")
        XCTAssertEqual(model.state.end, .more)

        model.appeared(model.items[3])
        XCTAssertNil(model.state.busy, "a row far from the end loads nothing")
        model.appeared(model.items[9])
        XCTAssertEqual(model.state.end, .loading)
        try await until("the second page") { model.items.count == 20 }
        model.appeared(model.items[19])
        try await until("the last page") { model.state.end == .end }
        XCTAssertEqual(model.items.map(\.id), Array((1...25).reversed()))

        try await client.demo().addItems(count: 2)
        try await until("the pill") { model.pill.count == 2 }
        XCTAssertEqual(model.items.count, 25, "new items wait behind the pill")
        XCTAssertEqual(model.announcement(), LiveState.Pill(count: 2))
        let added = await model.refresh()
        XCTAssertEqual(added, 2)
        XCTAssertEqual(model.pill.count, 0)
        XCTAssertEqual(model.items.first?.id, 27)
        XCTAssertNotNil(model.lastUpdated)

        let newest = try await client.demo().reset()
        try await until("the new feed") { model.startedOver && model.items.first?.id == newest }
        XCTAssertEqual(model.items.count, 10)
        XCTAssertEqual(model.pill.count, 0)
        await model.refresh()
        XCTAssertFalse(model.startedOver, "a refresh takes the note away")

        running.cancel()
        try await until("run() to return when its task is cancelled") { returned.yet }
    }

    func testAFailedPageIsAskedAgainOnlyByRetryAndAFailedRefreshKeepsLastUpdated() async throws {
        let server = try await PulldownServer(seed: 15)
        let client = PulldownClient(baseURL: server.url)
        let model = FeedModel(client: client)
        await model.loadMore()
        await model.refresh()
        let stamp = try XCTUnwrap(model.lastUpdated)

        try await client.demo().failNext(.page)
        await model.loadMore()
        XCTAssertEqual(model.state.end, .failed)
        XCTAssertEqual((model.pageError as? ProblemDetails)?.status, 503)
        await model.loadMore()
        XCTAssertEqual(model.items.count, 10, "not asked again by itself")
        await model.retry()
        XCTAssertEqual(model.items.count, 15)
        XCTAssertEqual(model.state.end, .end)

        try await client.demo().failNext(.refresh)
        let added = await model.refresh()
        XCTAssertNil(added)
        XCTAssertNotNil(model.refreshError)
        XCTAssertEqual(model.lastUpdated, stamp, "a failed refresh changes nothing")
        let again = await model.refresh()
        XCTAssertEqual(again, 0)
        XCTAssertNil(model.refreshError)
    }
}

import Foundation
import PulldownClient
import XCTest

/// Items edited and deleted while a client holds them, against a real server: the stream's typed
/// `updated` and `deleted` events, a refresh's `changed` list, and FeedModel applying both.
@MainActor
final class ChangesTests: XCTestCase {
    func testEditsAndDeletionsComeAsTypedStreamEventsInTheOrderOfTheSequence() async throws {
        let server = try await PulldownServer(seed: 10)
        let client = PulldownClient(baseURL: server.url)
        let log = EventLog(client.events(after: 10))
        defer { log.stop() }
        let edited = try await client.edit(7, ["title": .string("Reworded")])
        XCTAssertEqual(edited.title, "Reworded")
        try await client.delete(5)
        let posted = try await client.post(NewItem(title: "after them"))
        try await until("the changes and the item") { log.events.count == 3 }
        guard case .changed(.updated(let item, let first)) = log.events[0] else { return XCTFail("\(log.events)") }
        XCTAssertEqual(item, edited, "the item as the edit answered")
        XCTAssertEqual(first, 11)
        XCTAssertEqual(log.events[1], .changed(.deleted(id: 5, sequence: 12)), "one sequence, in order")
        guard case .items(let batch) = log.events[2] else { return XCTFail("\(log.events)") }
        XCTAssertEqual(batch.items.map(\.id), [posted.id])
        XCTAssertEqual(batch.sequence, 13)
    }

    func testARefreshListsWhatChangedSinceThePageHeldAndTheNextOneNothingAgain() async throws {
        let server = try await PulldownServer(seed: 20)
        let client = PulldownClient(baseURL: server.url)
        let page = try await client.page()
        let since = try XCTUnwrap(page.changes)
        try await client.edit(18, ["title": .string("Edited once")])
        try await client.edit(18, ["title": .string("Edited twice")])
        try await client.delete(17)
        let refreshed = try await client.refresh(after: 20, changes: since)
        XCTAssertEqual(refreshed.items, [])
        XCTAssertFalse(refreshed.gap)
        XCTAssertEqual(refreshed.changed.map(\.itemID), [18, 17], "an item edited twice comes once, as it is now")
        guard case .updated(let item, _) = refreshed.changed[0], case .deleted = refreshed.changed[1] else {
            return XCTFail("\(refreshed.changed)")
        }
        XCTAssertEqual(item.title, "Edited twice")
        let changes = try XCTUnwrap(refreshed.changes)
        XCTAssertGreaterThan(changes, since)
        let again = try await client.refresh(after: 20, changes: changes)
        XCTAssertEqual(again.changed, [], "nothing twice")
    }

    func testTheModelAppliesStreamChangesAndAPillItemDeletedNoLongerCounts() async throws {
        let server = try await PulldownServer(seed: 25)
        let client = PulldownClient(baseURL: server.url)
        let model = FeedModel(client: client)
        let running = Task { await model.run() }
        defer { running.cancel() }
        try await until("the newest page") { model.items.count == 10 }
        let writer = PulldownClient(baseURL: server.url) // another reader's edits
        try await writer.edit(22, ["title": .string("Fixed typo")])
        try await writer.delete(20)
        let posted = try await writer.post(NewItem(title: "soon gone"))
        try await until("the edit, the deletion and the pill") {
            model.items.first { $0.id == 22 }?.title == "Fixed typo" && model.pill.count == 1
        }
        XCTAssertEqual(model.items.map(\.id), [25, 24, 23, 22, 21, 19, 18, 17, 16], "replaced and removed in place")
        try await writer.delete(posted.id)
        let kept = [try await writer.post(NewItem(title: "stays")), try await writer.post(NewItem(title: "stays too"))]
        try await until("the pill without the item deleted") { model.pill.count == 2 }
        let added = await model.refresh()
        XCTAssertEqual(added, 2)
        XCTAssertEqual(model.items.prefix(3).map(\.id), [kept[1].id, kept[0].id, 25])
        XCTAssertFalse(model.items.contains { $0.id == posted.id })
        XCTAssertEqual(model.pill.count, 0)
    }

    func testTheModelsRefreshFixesWhatChangedWhileNoStreamWasOpen() async throws {
        let server = try await PulldownServer(seed: 15)
        let client = PulldownClient(baseURL: server.url)
        let model = FeedModel(client: client) // no run(): nothing followed
        await model.loadMore()
        XCTAssertEqual(model.items.count, 10)
        let writer = PulldownClient(baseURL: server.url)
        try await writer.edit(14, ["title": .string("Changed meanwhile")])
        try await writer.delete(12)
        let posted = try await writer.post(NewItem(title: "new")).id
        let added = await model.refresh()
        XCTAssertEqual(added, 1)
        XCTAssertEqual(model.items.map(\.id), [posted, 15, 14, 13, 11, 10, 9, 8, 7, 6])
        XCTAssertEqual(model.items[2].title, "Changed meanwhile")
        XCTAssertEqual(model.state.changes, posted, "the feed reflects the sequence up to its newest number")
        await model.loadMore()
        XCTAssertEqual(model.items.map(\.id), [posted] + Array((1...15).reversed()).filter { $0 != 12 }, "the rest, each once")
        XCTAssertEqual(model.state.end, .end)
    }
}

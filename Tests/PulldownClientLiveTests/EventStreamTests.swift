import Foundation
import PulldownClient
import XCTest

/// The live stream against a real server: typed events, refusals, and a resume across a restart.
@MainActor
final class EventStreamTests: XCTestCase {
    func testItemsResetAndDemoEventsArriveTyped() async throws {
        let server = try await PulldownServer(seed: 4)
        let client = PulldownClient(baseURL: server.url)
        let log = EventLog(client.events(after: 4))
        defer { log.stop() }
        let posted = try await client.post(NewItem(title: "live", fields: ["likes": .integer(2)]))
        try await until("the item") { log.itemIDs == [posted.id] }
        guard case .items(let batch) = log.events.first else { return XCTFail("\(log.events)") }
        XCTAssertEqual(batch.items, [posted], "the same item as the post answered")
        XCTAssertFalse(batch.gap)
        try await client.demo().setKnobs(delayMs: 5)
        try await until("the demo event") { log.events.count == 2 }
        guard case .demo(let knobs) = log.events[1] else { return XCTFail("\(log.events)") }
        XCTAssertEqual(knobs.delayMs, 5)
        let newest = try await client.demo().reset()
        try await until("the reset") { log.events.count == 3 }
        XCTAssertEqual(log.events[2], .reset(newestID: newest))
    }

    func testMissedItemsComeAsAGapEvent() async throws {
        let server = try await PulldownServer(seed: 2)
        let client = PulldownClient(baseURL: server.url)
        try await client.demo().addItems(count: 12)
        let log = EventLog(client.events(after: 2))
        defer { log.stop() }
        try await until("the items missed") { !log.events.isEmpty }
        guard case .items(let batch) = log.events[0] else { return XCTFail("\(log.events)") }
        XCTAssertTrue(batch.gap)
        XCTAssertEqual(batch.items.map(\.id), Array((5...14).reversed()))
    }

    func testARefusedStreamIsAskedAgainAfterItsRetryAfter() async throws {
        let server = try await PulldownServer(seed: 3)
        let client = PulldownClient(baseURL: server.url)
        try await client.demo().failNext(.events, count: 1)
        let log = EventLog(client.events(after: 3))
        defer { log.stop() }
        let posted = try await client.post(NewItem(title: "after the refusal"))
        try await until("the item") { log.itemIDs == [posted.id] }
        XCTAssertNil(log.ending, "a 503 is no end")
    }

    func testABadCursorEndsTheStreamWithTheProblem() async throws {
        let server = try await PulldownServer(seed: 3)
        let log = EventLog(PulldownClient(baseURL: server.url).events(after: -1))
        try await until("the end") { log.ending != nil }
        guard case .failure(let error as ProblemDetails) = log.ending else { return XCTFail("\(String(describing: log.ending))") }
        XCTAssertEqual(error.status, 400)
        XCTAssertEqual(error.invalidParams.map(\.name), ["after"])
    }

    /// The server stops (every stream ends), comes back refusing streams while items are added,
    /// then serves them again: the stream resumes from its last event id with exactly what it
    /// missed.
    func testAfterTheServerDropsTheStreamItResumesWithNothingLostOrRepeated() async throws {
        let server = try await PulldownServer(seed: 3, db: "feed.sqlite") // in its folder: it outlives the restart
        let client = PulldownClient(baseURL: server.url)
        let log = EventLog(client.events(after: 3))
        defer { log.stop() }
        var posted: [Int64] = []
        for title in ["one", "two"] {
            posted.append(try await client.post(NewItem(title: title)).id)
            try await until("\(title) before the drop") { log.itemIDs == posted }
        }
        try await server.restart(["--db", "feed.sqlite", "--seed", "3", "--fail-rate", "1"])
        let missed = try await client.demo().addItems(count: 3).map(\.id) // newest first, as events carry them
        try await client.demo().setKnobs(failRate: 0)
        try await until("the items missed") { log.itemIDs == posted + missed }
        XCTAssertEqual(log.events.count, 3, "what it missed in one event")
        posted += missed
        posted.append(try await client.post(NewItem(title: "after")).id)
        try await until("the item after") { log.itemIDs == posted }
        XCTAssertEqual(posted.sorted(), Array(4...9), "none lost, none twice")
        XCTAssertNil(log.ending)
    }
}

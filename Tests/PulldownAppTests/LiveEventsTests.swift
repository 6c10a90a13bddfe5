import Foundation
import PulldownFeed
import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp

/// The live events hub with an in-memory feed and recording subscribers: who is sent what.
final class LiveEventsTests: XCTestCase {
    /// A feed in memory whose inserts are announced when the test says so.
    final class FakeSource: LiveSource {
        private let items = Mutex<[Item]>([])
        private let handlers = Mutex<[@Sendable (Int64?) -> Void]>([])
        private let resetHandlers = Mutex<[@Sendable (Int64?) -> Void]>([])
        /// The last id handed out: ids go on growing across a reset.
        private let lastID = Mutex<Int64>(0)
        /// How many times the hub read new items.
        let reads = Atomic<Int>(0)

        init(count: Int) { insert(count, announce: false) }

        /// Adds `count` items and, like a committed insert, announces the newest id.
        func insert(_ count: Int, announce: Bool = true) {
            let newest = items.withLock { items -> Int64 in
                items.append(contentsOf: testItems(nextIDs(count)))
                return lastID.withLock { $0 }
            }
            if announce { handlers.withLock { $0 }.forEach { $0(newest) } }
        }

        /// Replaces every item by `count` new ones and, like a committed reset, announces it.
        func reset(to count: Int) {
            let newest = items.withLock { items -> Int64? in
                items = testItems(nextIDs(count))
                return items.last?.id
            }
            resetHandlers.withLock { $0 }.forEach { $0(newest) }
        }

        private func nextIDs(_ count: Int) -> [Int64] {
            lastID.withLock { last in
                defer { last += Int64(count) }
                return (0..<Int64(count)).map { last + 1 + $0 }
            }
        }

        func observeResets(_ handler: @escaping @Sendable (Int64?) -> Void) {
            resetHandlers.withLock { $0.append(handler) }
        }

        func newestID() throws -> Int64? { items.withLock { $0.last?.id } }

        func latestItems(newerThan cursor: Int64, limit: Int) throws -> LatestItems {
            reads.add(1, ordering: .relaxed)
            let newer = items.withLock { $0.filter { $0.id > cursor } }.reversed()
            return LatestItems(items: Array(newer.prefix(limit)), gap: newer.count > limit)
        }

        func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {
            handlers.withLock { $0.append(handler) }
        }

    }

    /// Keeps what it is sent, as text.
    final class RecordingSink: EventSink {
        private let written = Mutex<[[UInt8]]>([])
        private let ended = Mutex<(done: Bool, handler: (@Sendable () -> Void)?)>((false, nil))

        func write(_ bytes: [UInt8]) { written.withLock { $0.append(bytes) } }
        func enqueue(_ bytes: [UInt8]) { write(bytes) }
        func wake() {}
        func close() { end() }

        func onEnd(_ handler: @escaping @Sendable () -> Void) {
            let done = ended.withLock { state in
                if !state.done { state.handler = handler }
                return state.done
            }
            if done { handler() }
        }

        /// The client goes away.
        func end() {
            let handler = ended.withLock { state -> (@Sendable () -> Void)? in
                state.done = true
                defer { state.handler = nil }
                return state.handler
            }
            handler?()
        }

        var chunks: [String] { written.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }
        var raw: [[UInt8]] { written.withLock { $0 } }

        /// The `items` events: their ids, the item ids in them, and the gap flag.
        var events: [(id: Int64, items: [Int64], gap: Bool)] {
            chunks.filter { $0.hasPrefix("event: items\n") }.map { text in
                let lines = text.split(separator: "\n")
                let id = Int64(lines[1].dropFirst("id: ".count))!
                let data = Data(lines[2].dropFirst("data: ".count).utf8)
                let json = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
                let items = (json["items"] as! [[String: Any]]).map { ($0["id"] as! NSNumber).int64Value }
                return (id, items, json["gap"] as! Bool)
            }
        }
    }

    private func hub(_ source: FakeSource, maxStreams: Int = 100) -> LiveEvents {
        let live = LiveEvents(source: source, settings: .init(maxStreams: maxStreams, heartbeatSeconds: 3600))
        addTeardownBlock { live.stop() }
        return live
    }

    func testAStreamStartsWithRetryAndWithoutACursorSendsOnlyLaterItems() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        source.insert(2)
        live.sync {}
        XCTAssertEqual(sink.chunks.first, "retry: 1000\n\n")
        XCTAssertEqual(sink.events.map(\.id), [7])
        XCTAssertEqual(sink.events.first?.items, [7, 6])
        XCTAssertEqual(sink.events.first?.gap, false)
    }

    func testAReconnectingSubscriberGetsExactlyWhatItMissedThenWhatComesNext() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: 2))
        live.sync {}
        source.insert(1)
        live.sync {}
        source.insert(1)
        live.sync {}
        XCTAssertEqual(sink.events.map(\.items), [[5, 4, 3], [6], [7]], "none twice, none lost")
        XCTAssertEqual(sink.events.map(\.id), [5, 6, 7])
    }

    func testInsertsThatArriveTogetherGoOutAsOneEvent() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        // The hub is held busy while both inserts commit: its first read finds both, and the
        // second notice finds nothing new.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread { live.sync { holding.signal(); release.wait() } }
        holding.wait()
        source.insert(1)
        source.insert(1)
        release.signal()
        live.sync {}
        XCTAssertEqual(sink.events.map(\.items), [[7, 6]])
    }

    func testMoreThanTenMissedItemsAreAGap() {
        let source = FakeSource(count: 15)
        let live = hub(source)
        let behind = RecordingSink()
        XCTAssertTrue(live.add(behind, after: 0))
        let current = RecordingSink()
        XCTAssertTrue(live.add(current, after: nil))
        live.sync {}
        XCTAssertEqual(behind.events.first?.items, Array((6...15).reversed()))
        XCTAssertEqual(behind.events.first?.gap, true)
        source.insert(12)
        live.sync {}
        XCTAssertEqual(current.events.first?.items, Array((18...27).reversed()))
        XCTAssertEqual(current.events.first?.gap, true, "one insert of 12 is a gap too")
    }

    func testOneInsertIsReadOnceAndEverySubscriberGetsTheSameEvent() {
        let source = FakeSource(count: 3)
        let live = hub(source)
        let sinks = (0..<50).map { _ in RecordingSink() }
        for sink in sinks { XCTAssertTrue(live.add(sink, after: nil)) }
        live.sync {}
        let readsBefore = source.reads.load(ordering: .relaxed)
        source.insert(1)
        live.sync {}
        XCTAssertEqual(source.reads.load(ordering: .relaxed) - readsBefore, 1, "one read for fifty subscribers")
        let events = Set(sinks.map { $0.raw.last! })
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(sinks[0].events.map(\.items), [[4]])
    }

    func testASubscriberAheadOfTheFeedGetsOnlyItemsPastItsCursor() {
        let source = FakeSource(count: 3)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: 5))
        live.sync {}
        source.insert(2)   // 4 and 5: already seen
        source.insert(2)   // 6 and 7
        live.sync {}
        XCTAssertEqual(sink.events.map(\.items), [[7, 6]])
    }

    func testAResetIsOneEventToEveryStreamAndTheNewFeedIsNoNews() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let current = RecordingSink(), behind = RecordingSink()
        XCTAssertTrue(live.add(current, after: nil))
        XCTAssertTrue(live.add(behind, after: 3))
        live.sync {}
        source.reset(to: 3)
        live.sync {}
        let reset = "event: reset\nid: 8\ndata: {\"newestId\":8}\n\n"
        XCTAssertEqual(current.chunks, ["retry: 1000\n\n", reset])
        XCTAssertEqual(behind.chunks.last, reset)
        XCTAssertEqual(behind.events.map(\.items), [[5, 4]], "only what it missed before the reset")
        source.insert(1)
        live.sync {}
        XCTAssertEqual(current.events.map(\.items), [[9]], "the new feed's own items were never news")
        // Emptied: the event says so, and the next item is news again.
        source.reset(to: 0)
        source.insert(1)
        live.sync {}
        XCTAssertEqual(current.chunks.filter { $0.hasPrefix("event: reset") }.last, "event: reset\nid: 0\ndata: {\"newestId\":null}\n\n")
        XCTAssertEqual(current.events.map(\.items), [[9], [10]])
        XCTAssertEqual(behind.events.map(\.items), [[5, 4], [9], [10]])
    }

    func testTheStreamLimitHoldsAndASlotComesBackWhenAStreamEnds() {
        let source = FakeSource(count: 1)
        let live = hub(source, maxStreams: 2)
        let first = RecordingSink(), second = RecordingSink()
        XCTAssertTrue(live.add(first, after: nil))
        XCTAssertTrue(live.add(second, after: nil))
        XCTAssertFalse(live.add(RecordingSink(), after: nil))
        XCTAssertEqual(live.openStreams, 2)
        first.end()
        live.sync {}
        XCTAssertEqual(live.openStreams, 1)
        XCTAssertTrue(live.add(RecordingSink(), after: nil))
        source.insert(1)
        live.sync {}
        XCTAssertEqual(first.events.count, 0, "a stream that ended is sent nothing more")
        XCTAssertEqual(second.events.map(\.items), [[2]])
    }

    func testABroadcastGoesToEveryOpenStreamInOrderWithoutAnIDAndTheItemsGoOnAsBefore() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sinks = [RecordingSink(), RecordingSink()]
        for sink in sinks { XCTAssertTrue(live.add(sink, after: nil)) }
        live.sync {}
        live.broadcast(ServerSentEvents.event("demo", id: nil, data: Array(#"{"delayMs":1}"#.utf8)))
        live.broadcast(ServerSentEvents.event("demo", id: nil, data: Array(#"{"delayMs":2}"#.utf8)))
        source.insert(1)
        live.sync {}
        for sink in sinks {
            XCTAssertEqual(sink.chunks.filter { $0.hasPrefix("event: demo\n") },
                           ["event: demo\ndata: {\"delayMs\":1}\n\n", "event: demo\ndata: {\"delayMs\":2}\n\n"])
            XCTAssertEqual(sink.events.map(\.id), [6])
        }
        let late = RecordingSink()
        XCTAssertTrue(live.add(late, after: nil))
        live.sync {}
        XCTAssertEqual(late.chunks, ["retry: 1000\n\n"], "a stream that joins later hears only later changes")
    }

    func testWithNobodyListeningInsertsAreNotRead() {
        let source = FakeSource(count: 2)
        let live = hub(source)
        let readsBefore = source.reads.load(ordering: .relaxed)
        source.insert(3)
        live.sync {}
        XCTAssertEqual(source.reads.load(ordering: .relaxed), readsBefore)
        // A subscriber joining now starts after them.
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        source.insert(1)
        live.sync {}
        XCTAssertEqual(sink.events.map(\.items), [[6]])
    }
}

/// What a subscriber at a cursor gets from a batch, without a hub.
final class LiveBatchTests: XCTestCase {
    func testAtTheStartTheSharedEventPastTheEndNothingInsideItsOwnPart() {
        let batch = LiveBatch(from: 10, items: testItems(11...13), gap: false)
        XCTAssertEqual(batch.to, 13)
        XCTAssertEqual(batch.delivery(for: 10), .shared)
        XCTAssertEqual(batch.delivery(for: 13), .nothing)
        XCTAssertEqual(batch.delivery(for: 20), .nothing)
        XCTAssertEqual(batch.delivery(for: 11), .own(testItems(12...13), gap: false))
    }

    func testInsideABatchWithAGapTheGapStaysWhenNothingListedIsKnown() {
        let batch = LiveBatch(from: 0, items: testItems(16...25), gap: true)
        XCTAssertEqual(batch.delivery(for: 3), .own(testItems(16...25), gap: true))
        XCTAssertEqual(batch.delivery(for: 20), .own(testItems(21...25), gap: false))
    }

    func testTheEventCarriesTheNewestIDAndOneLineOfJSON() {
        let text = String(decoding: LiveBatch(from: 0, items: testItems(1...2), gap: false).sharedEvent(base: "http://x"), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("event: items\nid: 2\ndata: {\"items\":[{\"id\":2,"), text)
        XCTAssertTrue(text.hasSuffix("],\"gap\":false}\n\n"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 3)
    }
}

/// `GET /api/events`'s cursor: `Last-Event-ID` wins over `?after=`; anything but digits is a 400;
/// other parameters are ignored.
final class EventsCursorTests: XCTestCase {
    private func cursor(_ target: String, lastEventID: String? = nil) throws(Problem) -> Int64? {
        let headers = HTTPHeaders(lastEventID.map { [("Last-Event-ID", $0)] } ?? [])
        return try EventsEndpoint.cursor(of: HTTPRequest(method: "GET", rawTarget: target, headers: headers)!)
    }

    func testTheHeaderWinsOverTheQuery() throws {
        XCTAssertNil(try cursor("/api/events"))
        XCTAssertEqual(try cursor("/api/events?after=7"), 7)
        XCTAssertEqual(try cursor("/api/events?after=7", lastEventID: "12"), 12)
        XCTAssertEqual(try cursor("/api/events?_delay=10"), nil, "the demo knobs are allowed")
        XCTAssertEqual(try cursor("/api/events?after=7&_=1733300000&before=3"), 7, "unknown parameters are ignored")
    }

    func testBadCursorsAreNamed() {
        for (target, header, name) in [("/api/events?after=-1", nil, "after"), ("/api/events?after=x", nil, "after"),
                                       ("/api/events?after=1&after=2", nil, "after"), ("/api/events?t=1&after=", nil, "after"),
                                       ("/api/events", "abc", "Last-Event-ID"), ("/api/events", "+5", "Last-Event-ID")] {
            do {
                _ = try cursor(target, lastEventID: header)
                XCTFail("accepted \(target) \(header ?? "")")
            } catch {
                XCTAssertEqual(error.status, 400)
                XCTAssertEqual(error.invalidParams.map(\.name).first, name, target)
            }
        }
    }
}

/// Many streams are woken in slices, every one of them, each once.
final class PacedWakerTests: XCTestCase {
    final class CountingSink: EventSink {
        let woken: XCTestExpectation
        init(_ woken: XCTestExpectation) { self.woken = woken }
        func write(_ bytes: [UInt8]) {}
        func enqueue(_ bytes: [UInt8]) {}
        func wake() { woken.fulfill() }
        func close() {}
        func onEnd(_ handler: @escaping @Sendable () -> Void) {}
    }

    func testEveryStreamIsWokenOnceAcrossSlices() {
        let count = PacedWaker.slice * 2 + 5
        let sinks = (0..<count).map { CountingSink(expectation(description: "sink \($0) woken")) }
        PacedWaker().wake(sinks)
        wait(for: sinks.map(\.woken), timeout: 30)
    }
}

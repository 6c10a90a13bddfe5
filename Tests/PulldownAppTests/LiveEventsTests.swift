import Foundation
import PulldownFeed
@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp

/// The live events hub with an in-memory feed and recording subscribers: who is sent what.
final class LiveEventsTests: XCTestCase {
    /// A feed in memory whose inserts, changes and resets are announced when the test says so.
    /// Ids and change numbers come from one counter, as the feed's do.
    final class FakeSource: LiveSource {
        private struct State {
            var items: [Item] = []
            /// The last number handed out: an id or a change's; it goes on growing across a reset.
            var last: Int64 = 0
            /// Each changed item's latest change: its number, and whether it was a deletion.
            var log: [Int64: (number: Int64, deleted: Bool)] = [:]
            /// Changes numbered up to this are no longer kept.
            var floor: Int64 = 0
            /// What `sequence()` says: an insert moves it before it is announced, a change after
            /// (as `InsertReports` does: caches drop what a change touched first).
            var said: Int64 = 0
        }

        private let state = Mutex(State())
        private let handlers = Mutex<[@Sendable (Int64?) -> Void]>([])
        private let changeHandlers = Mutex<[@Sendable (ChangeNotice) -> Void]>([])
        private let resetHandlers = Mutex<[@Sendable (Int64?) -> Void]>([])
        /// How many times the hub read new items.
        let reads = Atomic<Int>(0)

        init(count: Int) { insert(count, announce: false) }

        /// Adds `count` items and, like a committed insert, announces the newest id.
        func insert(_ count: Int, announce: Bool = true) {
            let newest = state.withLock { state -> Int64 in
                let ids = (0..<Int64(count)).map { state.last + 1 + $0 }
                state.last += Int64(count)
                state.items.append(contentsOf: testItems(ids))
                state.said = state.last
                return state.last
            }
            if announce { handlers.withLock { $0 }.forEach { $0(newest) } }
        }

        /// Edits item `id` (a new version) or deletes it, and announces the change's number; then
        /// the sequence says so, unless `noted` is false (a reader between the two).
        func change(_ id: Int64, delete: Bool = false, announce: Bool = true, noted: Bool = true) {
            let number = state.withLock { state -> Int64 in
                state.last += 1
                let index = state.items.firstIndex { $0.id == id }!
                if delete {
                    state.items.remove(at: index)
                } else {
                    let old = state.items[index]
                    state.items[index] = Item(id: id, title: "edited \(state.last)", body: old.body, author: old.author,
                                              createdAt: old.createdAt, version: old.version + 1, editedAt: old.createdAt)
                }
                state.log[id] = (state.last, delete)
                return state.last
            }
            if announce { changeHandlers.withLock { $0 }.forEach { $0(ChangeNotice(ids: [id], through: number)) } }
            if noted { state.withLock { $0.said = max($0.said, number) } }
        }

        /// Forgets the changes numbered up to `floor`, as pruning does.
        func prune(through floor: Int64) {
            state.withLock { state in
                state.log = state.log.filter { $0.value.number > floor }
                state.floor = floor
            }
        }

        /// Replaces every item by `count` new ones and, like a committed reset, announces it.
        func reset(to count: Int) {
            let newest = state.withLock { state -> Int64? in
                state.items = testItems((0..<Int64(count)).map { state.last + 1 + $0 })
                state.last += Int64(count)
                state.log = [:]
                state.floor = state.last
                state.said = state.last
                return state.items.last?.id
            }
            resetHandlers.withLock { $0 }.forEach { $0(newest) }
        }

        func observeResets(_ handler: @escaping @Sendable (Int64?) -> Void) {
            resetHandlers.withLock { $0.append(handler) }
        }

        func observeChanges(_ handler: @escaping @Sendable (ChangeNotice) -> Void) {
            changeHandlers.withLock { $0.append(handler) }
        }

        func sequence() throws -> Int64 { state.withLock { $0.said } }

        /// Runs once, right after the next read of the newest items: a commit between two reads.
        let afterItemsRead = Mutex<(@Sendable () -> Void)?>(nil)

        func latestItems(newerThan cursor: Int64, limit: Int) throws -> LatestItems {
            reads.add(1, ordering: .relaxed)
            let newer = state.withLock { $0.items.filter { $0.id > cursor } }.reversed()
            afterItemsRead.withLock { hook in defer { hook = nil }; return hook }?()
            return LatestItems(items: Array(newer.prefix(limit)), gap: newer.count > limit)
        }

        func changes(since: Int64, limit: Int) throws -> ChangeList {
            try state.withLock { state in
                guard since >= state.floor else { throw FeedError.changesExpired(since: since) }
                let after = state.log.filter { $0.value.number > since }.sorted { $0.value.number < $1.value.number }
                let changes = after.prefix(limit).map { id, entry in
                    Change(sequence: entry.number,
                           kind: entry.deleted ? .deleted(id) : .updated(state.items.first { $0.id == id }!))
                }
                let hasMore = after.count > limit
                return ChangeList(changes: changes, hasMore: hasMore,
                                  sequence: hasMore ? changes.last!.sequence : max(state.last, changes.last?.sequence ?? 0))
            }
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

        /// Every event as sent, split apart: its name and id (`items 6`, `updated 7`, `deleted 8`).
        var names: [String] {
            chunks.joined().components(separatedBy: "\n\n").compactMap { event in
                let lines = event.split(separator: "\n")
                guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7) else { return nil }
                let id = lines.first(where: { $0.hasPrefix("id: ") })?.dropFirst(4)
                return id.map { "\(name) \($0)" } ?? String(name)
            }
        }
        var raw: [[UInt8]] { written.withLock { $0 } }

        /// The `items` events: their ids, the item ids in them, and the gap flag.
        var events: [(id: Int64, items: [Int64], gap: Bool)] {
            chunks.joined().components(separatedBy: "\n\n").filter { $0.hasPrefix("event: items\n") }.map { text in
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

    func testAnInsertCommittedWhileABatchIsReadIsSentByItsOwnNotice() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        // Item 7 commits after the read of the items for 6, before the read of the changes: the
        // changes' read sees the sequence at 7, and the batch must still not claim to have sent 7.
        source.afterItemsRead.withLock { $0 = { source.insert(1) } }
        source.insert(1)
        live.sync {}
        live.sync {}   // the notice of 7, queued during the first read
        XCTAssertEqual(sink.events.map(\.items), [[6], [7]])
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

    func testAKeptBroadcastGreetsEveryLaterStreamOnceAndAPlainOneDoesNot() {
        let source = FakeSource(count: 1)
        let live = hub(source)
        let early = RecordingSink()
        XCTAssertTrue(live.add(early, after: nil))
        live.broadcast(ServerSentEvents.event("demo", id: nil, data: Array("{}".utf8)))
        live.broadcast(ServerSentEvents.event("script", id: nil, data: Array("{\"label\":\"Act 1\"}".utf8)), kept: true)
        let late = RecordingSink()
        XCTAssertTrue(live.add(late, after: nil))
        live.broadcast(ServerSentEvents.event("script", id: nil, data: Array("{\"label\":\"Act 2\"}".utf8)), kept: true)
        let later = RecordingSink()
        XCTAssertTrue(live.add(later, after: nil))
        live.sync {}
        XCTAssertEqual(early.names, ["demo", "script", "script"])
        XCTAssertEqual(late.names, ["script", "script"])
        XCTAssertTrue(late.chunks.joined().contains("Act 1"))
        XCTAssertEqual(later.names, ["script"])
        XCTAssertTrue(later.chunks.joined().contains("Act 2") && !later.chunks.joined().contains("Act 1"))
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

/// Edits and deletions beside inserts: one order, one cursor for all of them.
final class LiveChangesTests: XCTestCase {
    typealias FakeSource = LiveEventsTests.FakeSource
    typealias RecordingSink = LiveEventsTests.RecordingSink

    private func hub(_ source: FakeSource) -> LiveEvents {
        let live = LiveEvents(source: source, settings: .init(maxStreams: 100, heartbeatSeconds: 3600))
        addTeardownBlock { live.stop() }
        return live
    }

    func testEditsDeletionsAndInsertsGoOutInTheOrderOfTheirNumbers() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        // The hub is held busy while all four commit: one read finds them all.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread { live.sync { holding.signal(); release.wait() } }
        holding.wait()
        source.insert(1)              // 6
        source.change(3)              // 7
        source.change(4, delete: true) // 8
        source.insert(2)              // 9, 10
        release.signal()
        live.sync {}
        XCTAssertEqual(sink.names, ["items 6", "updated 7", "deleted 8", "items 10"])
        XCTAssertEqual(sink.events.map(\.items), [[6], [10, 9]])
        XCTAssertTrue(sink.chunks.joined().contains("event: updated\nid: 7\ndata: {\"id\":3,\"title\":\"edited 7\""))
        XCTAssertTrue(sink.chunks.joined().contains("event: deleted\nid: 8\ndata: {\"id\":4}\n\n"))
    }

    func testAChangeHeardBeforeTheSequenceSaysSoIsSent() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: nil))
        live.sync {}
        source.change(3, noted: false)   // the notice is read while the sequence still says 5
        live.sync {}
        XCTAssertEqual(sink.names, ["updated 6"])
    }

    func testAReconnectFromAnyEventGetsExactlyWhatItMissedInOrderNoneTwice() {
        let source = FakeSource(count: 5)
        let live = hub(source)
        let first = RecordingSink()
        XCTAssertTrue(live.add(first, after: nil))
        live.sync {}
        source.change(2)                // 6
        live.sync {}
        source.insert(1)                // 7
        source.change(7)                // 8: the new item, edited
        live.sync {}
        source.change(1, delete: true)  // 9
        live.sync {}
        let all = first.names
        XCTAssertEqual(all, ["updated 6", "items 7", "updated 8", "deleted 9"])
        for (index, name) in all.enumerated() {
            // Reconnected with the id of each event in turn: the rest, and nothing before it.
            let again = RecordingSink()
            XCTAssertTrue(live.add(again, after: Int64(name.split(separator: " ")[1])!))
            live.sync {}
            XCTAssertEqual(again.names, Array(all[(index + 1)...]), "after \(name)")
        }
    }

    func testAnItemEditedTwiceWhileAwayIsOneUpdateAsItIsNow() {
        let source = FakeSource(count: 3)
        source.change(2, announce: false)   // 4
        source.change(2, announce: false)   // 5
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: 3))
        live.sync {}
        XCTAssertEqual(sink.names, ["updated 5"])
        XCTAssertTrue(sink.chunks.joined().contains("\"title\":\"edited 5\""))
    }

    func testAReconnectOlderThanTheLogKeepsIsOneExpiredEventThenWhatComesNext() {
        let source = FakeSource(count: 5)
        source.change(1, announce: false)   // 6
        source.change(2, announce: false)   // 7
        source.prune(through: 6)
        let live = hub(source)
        let sink = RecordingSink()
        XCTAssertTrue(live.add(sink, after: 5))
        live.sync {}
        XCTAssertEqual(sink.chunks.last, "event: expired\nid: 7\ndata: {\"changes\":7}\n\n")
        source.change(3)
        live.sync {}
        XCTAssertEqual(sink.names, ["expired 7", "updated 8"], "it goes on from where the feed was")
        let fresh = RecordingSink()
        XCTAssertTrue(live.add(fresh, after: 6))
        live.sync {}
        XCTAssertEqual(fresh.names, ["updated 7", "updated 8"], "from the floor on, all is kept")
    }
}

/// What a subscriber at a cursor gets from a batch, without a hub.
final class LiveBatchTests: XCTestCase {
    private func items(_ ids: ClosedRange<Int64>, gap: Bool, number: Int64) -> [UInt8] {
        ServerSentEvents.event("items", id: number, data: ResponseJSON.liveItems(testItems(Array(ids.reversed())), gap: gap, base: ""))
    }

    /// The events an `.own` delivery writes, nil for any other.
    private func sent(_ delivery: LiveBatch.Delivery) -> [UInt8]? {
        guard case .own(let entries) = delivery else { return nil }
        return LiveBatch.events(entries, base: "")
    }

    func testAtTheStartTheSharedEventPastTheEndNothingInsideItsOwnPart() {
        let batch = LiveBatch(from: 10, items: testItems(Array((11...13).reversed())), gap: false)
        XCTAssertEqual(batch.to, 13)
        XCTAssertEqual(batch.delivery(for: 10), .shared)
        XCTAssertEqual(batch.delivery(for: 13), .nothing)
        XCTAssertEqual(batch.delivery(for: 20), .nothing)
        XCTAssertEqual(sent(batch.delivery(for: 11)), items(12...13, gap: false, number: 13))
    }

    func testInsideABatchWithAGapTheGapStaysWhenNothingListedIsKnown() {
        let batch = LiveBatch(from: 0, items: testItems(Array((16...25).reversed())), gap: true)
        XCTAssertEqual(sent(batch.delivery(for: 3)), items(16...25, gap: true, number: 25))
        XCTAssertEqual(sent(batch.delivery(for: 20)), items(21...25, gap: false, number: 25))
    }

    func testInsertsAndChangesAreMergedByTheirNumbersAndAGapsItemsGoLast() {
        let edit = Change(sequence: 12, kind: .updated(testItems([3])[0])), deletion = Change(sequence: 14, kind: .deleted(4))
        let batch = LiveBatch(from: 10, to: 16, items: testItems([15, 13, 11]), gap: false, changes: [edit, deletion])
        XCTAssertEqual(batch.entries.map(\.number), [11, 12, 13, 14, 15])
        XCTAssertEqual(batch.to, 16, "16 was read, though no event shows it")
        XCTAssertEqual(sent(batch.delivery(for: 12)), (items(13...13, gap: false, number: 13) + LiveBatch.event(deletion, base: "")
                                                      + items(15...15, gap: false, number: 15)))
        XCTAssertEqual(sent(batch.delivery(for: 15)), [], "nothing to show, but it moves to 16")
        let gap = LiveBatch(from: 10, to: 16, items: testItems([15, 13]), gap: true, changes: [edit])
        XCTAssertEqual(gap.entries.map(\.number), [12, 16])
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

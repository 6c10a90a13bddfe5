import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// The newest page on a shared store: instance B keeps it in memory keyed on its revision, and
/// must still show every item instance A acknowledged before B was asked, with one newest-id
/// query shared by the requests that wait for it.
final class PostgresNewestCheckTests: XCTestCase {
    /// A PostgreSQL store that counts its newest-id reads, can hold the next one after it has
    /// answered, and hears no other instance's inserts, as if every notification came too late:
    /// only the newest-id check can then tell the feed about them.
    private final class CountingStore: FeedStore {
        let base: any FeedStore
        let newestReads = Mutex(0)
        /// Runs once, after the next newest-id read has its answer.
        let afterNextNewestRead = Mutex<(@Sendable () -> Void)?>(nil)

        init(_ base: any FeedStore) {
            self.base = base
        }

        func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
            try base.read { try body(CountingReader(base: $0, store: self)) }
        }

        func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R {
            try base.write(body)
        }

        func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}

        var isShared: Bool { base.isShared }

        func newestRead() {
            newestReads.withLock { $0 += 1 }
            afterNextNewestRead.withLock { hook in
                defer { hook = nil }
                return hook
            }?()
        }
    }

    private struct CountingReader: FeedStoreReading {
        let base: any FeedStoreReading
        let store: CountingStore

        func maxItemID() throws -> Int64? {
            let newest = try base.maxItemID()
            store.newestRead()
            return newest
        }

        func itemCount() throws -> Int64 { try base.itemCount() }
        func places(before cursor: Int64, limit: Int) throws -> [ItemPlace] { try base.places(before: cursor, limit: limit) }
        func newestItems(after cursor: Int64, limit: Int) throws -> [Item] { try base.newestItems(after: cursor, limit: limit) }
        func oldestPlaces(after cursor: Int64, limit: Int) throws -> [ItemPlace] { try base.oldestPlaces(after: cursor, limit: limit) }
        func place(_ id: Int64) throws -> ItemPlace? { try base.place(id) }
        func sequence() throws -> Int64 { try base.sequence() }
        func changes(since: Int64, limit: Int) throws -> [Change] { try base.changes(since: since, limit: limit) }
        func changedItemIDs(since: Int64) throws -> (ids: [Int64], through: Int64?) { try base.changedItemIDs(since: since) }
        func session(_ id: SessionID) throws -> SessionRecord? { try base.session(id) }
        func metaDouble(_ key: String) throws -> Double? { try base.metaDouble(key) }
        func metaBytes(_ key: String) throws -> [UInt8]? { try base.metaBytes(key) }
        func pictureOrigins() throws -> [String] { try base.pictureOrigins() }
    }

    /// The newest page kept in memory until the revision moves, as the API keeps it.
    private final class NewestPage: Sendable {
        let feed: Feed
        private let kept = Mutex<(revision: UInt64, page: ItemPage)?>(nil)

        init(feed: Feed) {
            self.feed = feed
        }

        /// A newest-page request: the page's newest id, nil when the store failed.
        func request(_ answer: @escaping @Sendable (Int64?) -> Void) {
            feed.withCurrentRevision { revision in
                guard let revision = try? revision.get() else { return answer(nil) }
                if let kept = self.kept.withLock({ $0 }), kept.revision == revision {
                    return answer(kept.page.items.first?.id)
                }
                guard let page = try? self.feed.page(before: nil, limit: 5) else { return answer(nil) }
                self.kept.withLock { kept in
                    if (kept?.revision ?? 0) <= revision { kept = (revision, page) }
                }
                answer(page.items.first?.id)
            }
        }

        func requestAndWait() -> Int64? {
            let newest = Mutex<Int64?>(nil)
            let answered = DispatchSemaphore(value: 0)
            request { id in
                newest.withLock { $0 = id }
                answered.signal()
            }
            answered.wait()
            return newest.withLock { $0 }
        }
    }

    /// Instance A with 5 items, and B (counted, deaf to A's notifications) with its newest page.
    private func twoInstances() throws -> (a: Feed, b: CountingStore, newestPage: NewestPage) {
        let open = try PostgresBackend().makeLocation(self)
        let a = makeFeed(store: try open(), newItemsEvery: 0)
        _ = try a.seedIfEmpty(count: 5)
        let counting = CountingStore(try open())
        return (a, counting, NewestPage(feed: makeFeed(store: counting, newItemsEvery: 0)))
    }

    func testAResetOnAnotherInstanceIsSeenByTheNextCheckWithoutItsNotification() throws {
        let (a, _, newestPage) = try twoInstances()
        let b = newestPage.feed
        let old = try b.feedID()
        XCTAssertEqual(old, try a.feedID())
        try a.resetToDemo(count: 0)
        // B hears nothing (its store is deaf), and knows the old identity still...
        XCTAssertEqual(b.revision.feedID, old)
        // ...but a request that waits for the check is told what the store says now.
        let state = Mutex<FeedState?>(nil)
        let answered = DispatchSemaphore(value: 0)
        b.withCurrentState { result in
            state.withLock { $0 = try? result.get() }
            answered.signal()
        }
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(state.withLock { $0?.id }, try a.feedID())
        XCTAssertNotEqual(try a.feedID(), old)
    }

    func testNewestPagesOnOneInstanceNeverMissAnItemAnotherAcknowledgedBeforeTheyWereAsked() throws {
        let (a, counting, newestPage) = try twoInstances()
        let readsBefore = counting.newestReads.withLock { $0 }

        let posts = 150, readers = 8
        let acknowledged = Atomic<Int64>(5)
        let writing = Atomic<Bool>(true)
        let requests = Atomic<Int>(0)
        let misses = Mutex([String]())
        let failures = Mutex([String]())
        let finished = DispatchGroup()
        func spawn(_ body: @escaping @Sendable () -> Void) {
            finished.enter()
            Thread.detachNewThread { body(); finished.leave() }
        }
        spawn {
            for number in 0..<posts {
                do {
                    let item = try a.addItem(NewItem(title: "Posted on A \(number)", body: ""))
                    // Acknowledged: from now on, every newest page B is asked for must show it.
                    acknowledged.store(item.id, ordering: .sequentiallyConsistent)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            writing.store(false, ordering: .sequentiallyConsistent)
        }
        for _ in 0..<readers {
            spawn {
                while writing.load(ordering: .sequentiallyConsistent) {
                    let floor = acknowledged.load(ordering: .sequentiallyConsistent)
                    requests.add(1, ordering: .relaxed)
                    guard let newest = newestPage.requestAndWait() else {
                        failures.withLock { $0.append("a newest page failed") }
                        return
                    }
                    if newest < floor {
                        misses.withLock { $0.append("item \(floor) was acknowledged, the page starts at \(newest)") }
                    }
                }
            }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 120), .success, "writer and readers finished")
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(misses.withLock { Array($0.prefix(5)) }, [], "a newest page hid an acknowledged item")
        XCTAssertEqual(newestPage.requestAndWait(), Int64(5 + posts))
        let reads = counting.newestReads.withLock { $0 } - readsBefore
        let asked = requests.load(ordering: .relaxed) + 1
        XCTAssertLessThan(reads, asked, "concurrent requests shared newest-id reads")
    }

    func testRequestsArrivingDuringANewestIDReadShareTheNextOneAndSeeWhatWasAcknowledgedMeanwhile() throws {
        let (a, counting, newestPage) = try twoInstances()
        XCTAssertEqual(newestPage.requestAndWait(), 5, "the page is kept at this revision")

        // The next newest-id read answers 5, then is held.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        counting.afterNextNewestRead.withLock { $0 = { held.signal(); release.wait() } }
        let readsBefore = counting.newestReads.withLock { $0 }
        let first = Mutex<Int64?>(nil)
        let answered = DispatchGroup()
        answered.enter()
        Thread.detachNewThread {
            newestPage.request { newest in
                first.withLock { $0 = newest }
                answered.leave()
            }
        }
        guard held.wait(timeout: .now() + 30) == .success else {
            release.signal()
            return XCTFail("the request did not check the store's newest id")
        }
        // While that read is in flight, A acknowledges an item, and then ten requests reach B.
        let item = try a.addItem(NewItem(title: "Posted on A", body: ""))
        let later = Mutex([Int64?]())
        for _ in 0..<10 {
            answered.enter()
            newestPage.request { newest in
                later.withLock { $0.append(newest) }
                answered.leave()
            }
        }
        XCTAssertEqual(later.withLock { $0 }, [], "none is answered by the read in flight")
        release.signal()

        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        // The first request's read saw 5, but its answer can come after the later requests'
        // check moved the revision on; it then reads the page afresh, post included. Either is right.
        XCTAssertTrue([5, item.id].contains(first.withLock { $0 }), "the request from before the post shows the page with or without it")
        XCTAssertEqual(later.withLock { $0 }, Array(repeating: item.id, count: 10), "every later request shows the post")
        XCTAssertEqual(counting.newestReads.withLock { $0 } - readsBefore, 2, "eleven requests, two newest-id reads")
    }
}

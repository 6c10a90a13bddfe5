import Dispatch
@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// On a shared store no request waits on a server thread for another request's check of the
/// newest id: the newest page waits suspended, and an older page does not wait at all.
final class SharedStoreWaitTests: XCTestCase {
    /// SQLite presented as shared, whose next read, once armed, is held after it has its answer
    /// until the test lets go: a slow query on a pooled connection, holding none that others need.
    private final class HeldSharedStore: FeedStore {
        let base: SQLiteStore
        let holdNextRead = Atomic(false)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        init() throws { base = try SQLiteStore(path: ":memory:") }

        func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R {
            let result = try base.read(body)
            if holdNextRead.exchange(false, ordering: .relaxed) {
                held.signal()
                release.wait()
            }
            return result
        }
        func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R { try base.write(body) }
        func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void) {}
        var isShared: Bool { true }
    }

    func testAnOlderPageIsAnsweredWhileACheckIsHeld() throws {
        let store = try HeldSharedStore()
        let feed = Feed(store: store)
        XCTAssertEqual(try feed.seedIfEmpty(count: 30), 30)
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        let api = API(feed: feed, sessions: SessionResolver(tokens: tokens), pageSize: 10)

        // The newest page's first read is its check of the store's newest id.
        store.holdNextRead.store(true, ordering: .relaxed)
        let newest = expectation(description: "the newest page, after the check")
        DispatchQueue.global().async {
            api.items(HTTPRequest(method: "GET", rawTarget: "/api/items", headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { _ in newest.fulfill() })
        }
        XCTAssertEqual(store.held.wait(timeout: .now() + 30), .success, "the newest page's check is in flight")

        let older = expectation(description: "an older page, the check still held")
        DispatchQueue.global().async {
            api.items(HTTPRequest(method: "GET", rawTarget: "/api/items?before=11", headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { sent in
                XCTAssertEqual(sent.status, 200)
                older.fulfill()
            })
        }
        wait(for: [older], timeout: 30)

        store.release.signal()
        wait(for: [newest], timeout: 30)
    }
}

import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// 2026-11-30 07:41:00 UTC: a fixed "now" so every run sees the same days.
let testNow = Date(timeIntervalSince1970: 1_795_938_060)

/// A fresh folder under the system temp folder, removed when the test ends.
func makeTemporaryFolder(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("pulldown-feed-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
    return url
}

func makeFeed(
    store: any FeedStore, clock: ManualClock = ManualClock(testNow),
    newItemsEvery: TimeInterval = 5, sessionTTL: TimeInterval = 30 * 86400, demoSeed: UInt64 = 0,
    changesKept: Int = 10_000
) -> Feed {
    var configuration = FeedConfiguration()
    configuration.newItemsEvery = newItemsEvery
    configuration.sessionTTL = sessionTTL
    configuration.demoSeed = demoSeed
    configuration.changesKept = changesKept
    return Feed(store: store, clock: clock, configuration: configuration)
}

/// A SQLite feed (":memory:" unless a path is given), for tests of SQLite itself.
func makeFeed(
    path: String = ":memory:", clock: ManualClock = ManualClock(testNow),
    newItemsEvery: TimeInterval = 5, sessionTTL: TimeInterval = 30 * 86400
) throws -> Feed {
    makeFeed(store: try SQLiteStore(path: path), clock: clock, newItemsEvery: newItemsEvery, sessionTTL: sessionTTL)
}

extension Feed {
    /// The revision once a shared store's check has answered, waited for on this thread: what a
    /// handler must not do, and a test may. A failed check moved the revision too.
    func revisionAfterCheck() -> UInt64 {
        let answered = DispatchSemaphore(value: 0)
        withCurrentRevision { _ in answered.signal() }
        answered.wait()
        return revision.current
    }

    /// A refresh through the group-committing batcher, as the API makes it, waited for.
    func refresh(session id: SessionID, after: Int64?, changes: Int64? = nil, limit: Int) throws -> RefreshResult {
        let answer = Mutex<Result<RefreshResult, any Error>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        refresh(session: id, after: after, changes: changes, limit: limit) { result in
            answer.withLock { $0 = result }
            answered.signal()
        }
        answered.wait()
        return try answer.withLock { $0! }.get()
    }
}

/// How the shared behaviour suites reach one kind of store.
protocol StoreBackend: Sendable {
    /// A new, empty store of its own.
    func makeStore(_ test: XCTestCase) throws -> any FeedStore
    /// Opens a new, empty database; each call of the result opens it again (a restart, or a
    /// second instance on the same data).
    func makeLocation(_ test: XCTestCase) throws -> @Sendable () throws -> any FeedStore
    /// Runs SQL text on the store's database.
    func execute(_ sql: String, on store: any FeedStore) throws
    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String, on store: any FeedStore) throws -> Int64
    /// Makes every later write of a session row, INSERT or UPDATE, fail with "simulated failure",
    /// whether a refresh is committed alone or in a group.
    func breakSessionWrites(on store: any FeedStore) throws
    func repairSessionWrites(on store: any FeedStore) throws
}

struct SQLiteBackend: StoreBackend {
    func makeStore(_ test: XCTestCase) throws -> any FeedStore {
        try SQLiteStore(path: ":memory:")
    }

    func makeLocation(_ test: XCTestCase) throws -> @Sendable () throws -> any FeedStore {
        let path = try makeTemporaryFolder(test).appendingPathComponent("feed.sqlite").path
        return { try SQLiteStore(path: path) }
    }

    func execute(_ sql: String, on store: any FeedStore) throws {
        try (store as! SQLiteStore).withWriter { try $0.execute(sql) }
    }

    func integer(_ sql: String, on store: any FeedStore) throws -> Int64 {
        try (store as! SQLiteStore).withReader { connection in
            try connection.withStatement(sql) { statement in
                try statement.step()
                return statement.int64(0)
            }
        }
    }

    func breakSessionWrites(on store: any FeedStore) throws {
        // SQLite triggers name one event each.
        try execute("""
            CREATE TRIGGER fail_session_insert BEFORE INSERT ON sessions
            BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;
            CREATE TRIGGER fail_session_update BEFORE UPDATE ON sessions
            BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;
            """, on: store)
    }

    func repairSessionWrites(on store: any FeedStore) throws {
        try execute("DROP TRIGGER fail_session_insert; DROP TRIGGER fail_session_update", on: store)
    }
}

/// The base of the behaviour suites: their tests run on SQLite here, and again on PostgreSQL in
/// the subclasses of PostgresBehaviourTests.swift (which set `backend`).
class FeedStoreTestCase: XCTestCase {
    var backend: any StoreBackend { SQLiteBackend() }

    func makeStore() throws -> any FeedStore {
        try backend.makeStore(self)
    }

    func makeFeed(
        clock: ManualClock = ManualClock(testNow), newItemsEvery: TimeInterval = 5,
        sessionTTL: TimeInterval = 30 * 86400, demoSeed: UInt64 = 0, changesKept: Int = 10_000
    ) throws -> Feed {
        PulldownFeedTests.makeFeed(store: try makeStore(), clock: clock, newItemsEvery: newItemsEvery,
                                   sessionTTL: sessionTTL, demoSeed: demoSeed, changesKept: changesKept)
    }
}

import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// What only the PostgreSQL store has: URLs, a shared schema, several instances, lost connections.
final class PostgresStoreTests: XCTestCase {
    func testAnUnreachableServerGivesAStoreErrorWithTheMaskedURL() throws {
        do {
            _ = try PostgresStore(url: "postgres://ada:secret@127.0.0.1:1/feed")
            XCTFail("opened a server on port 1")
        } catch {
            guard case .cannotOpen(let location, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(location, "postgres://ada:***@127.0.0.1:1/feed")
            XCTAssertTrue(error.description.hasPrefix("cannot open database at postgres://ada:***@127.0.0.1:1/feed: "),
                          error.description)
            XCTAssertTrue(error.reason.contains("refused"), error.reason)
            XCTAssertFalse(error.description.contains("secret"))
        }
    }

    func testPoolSizeComesFromTheURLElseTheDefaultAndIsNotPassedToLibpq() throws {
        let plain = try PGSettings(url: "postgresql://u@h:5/db", defaultPoolSize: 3)
        XCTAssertEqual(plain.poolSize, 3)
        XCTAssertEqual(plain.url, "postgresql://u@h:5/db")
        let sized = try PGSettings(url: "postgres://u@h/db?sslmode=disable&pool_size=12&connect_timeout=2", defaultPoolSize: 3)
        XCTAssertEqual(sized.poolSize, 12)
        XCTAssertEqual(sized.url, "postgres://u@h/db?sslmode=disable&connect_timeout=2")
        XCTAssertThrowsError(try PGSettings(url: "postgres://u@h/db?pool_size=0", defaultPoolSize: 3))
        XCTAssertThrowsError(try PGSettings(url: "postgres://u@h/db?pool_size=x", defaultPoolSize: 3))
    }

    func testOnlyPostgresURLsSelectPostgres() throws {
        XCTAssertTrue(FeedStores.isPostgresURL("postgres://u@h/db"))
        XCTAssertTrue(FeedStores.isPostgresURL("PostgreSQL://u@h/db"))
        XCTAssertFalse(FeedStores.isPostgresURL("postgres.sqlite"))
        XCTAssertFalse(FeedStores.isPostgresURL(":memory:"))
        XCTAssertTrue(try FeedStores.open(":memory:", connections: 2) is SQLiteStore)
    }

    func testTheSchemaIsVersionedInMetaAndANewerVersionIsRefused() throws {
        let url = try PostgresBackend.makeDatabase(self)
        do {
            let store = try PostgresStore(url: url, poolSize: 2)
            XCTAssertEqual(try PostgresBackend().integer(
                "SELECT number::bigint FROM meta WHERE key = 'schema_version'", on: store), PostgresSchema.migrations.latestVersion)
            XCTAssertEqual(store.poolSize, 2)
        }
        // Opening again migrates nothing and keeps the data.
        let again = try PostgresStore(url: url, poolSize: 2)
        try PostgresBackend().execute("UPDATE meta SET number = 99 WHERE key = 'schema_version'", on: again)
        do {
            _ = try PostgresStore(url: url)
            XCTFail("opened a newer schema")
        } catch {
            guard case .schemaTooNew(_, found: 99, supported: PostgresSchema.migrations.latestVersion) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.contains("schema version 99 is newer"), error.description)
        }
    }

    /// Version 4 keeps the picture origins, filled from the items stored before it.
    func testAVersion3DatabaseGainsThePictureOriginsOfItsItems() throws {
        let url = try PostgresBackend.makeDatabase(self)
        do {
            let store = try PostgresStore(url: url, poolSize: 1)
            _ = try store.write { store in
                try store.insertItems(count: 2) { index in
                    ItemDraft(title: "Old", body: "", author: "A", createdAt: 5, userFields: [
                        #"{"avatar":"https://cdn.example/a.png","url":"https://blog.example/"}"#, #"{"avatar":"/a.png"}"#,
                    ][index])
                }
            }
            // Back to the version 3 layout: without version 5's changes and version 4's origins.
            try PostgresBackend().execute("""
                ALTER TABLE items DROP COLUMN version, DROP COLUMN edited_at, DROP COLUMN deleted; DROP TABLE changes;
                ALTER TABLE sessions DROP COLUMN last_sequence;
                DROP TABLE picture_origins; UPDATE meta SET number = 3 WHERE key = 'schema_version'
                """, on: store)
        }
        let store = try PostgresStore(url: url, poolSize: 1)
        XCTAssertEqual(try store.read { try $0.pictureOrigins() }, ["https://cdn.example"])
    }

    func testTwoInstancesNeverHandOutTheSameIDAndReadersSeeIDsOnlyInOrder() throws {
        let open = try PostgresBackend().makeLocation(self)
        let feeds = [makeFeed(store: try open(), newItemsEvery: 0), makeFeed(store: try open(), newItemsEvery: 0)]
        let writers = 4, readers = 2, perWriter = 60, total = writers * perWriter
        let added = Mutex([Int64]())
        let failures = Mutex([String]())
        let holes = Mutex([String]())
        let writing = Mutex(writers)
        let finished = DispatchGroup()
        // Threads of their own, not concurrentPerform: on two cores that runs a few bodies at a
        // time, so readers would mostly start after the writers and check little ordering.
        func spawn(_ body: @escaping @Sendable () -> Void) {
            finished.enter()
            Thread.detachNewThread { body(); finished.leave() }
        }
        for index in 0..<writers {
            let feed = feeds[index % 2]
            spawn {
                for number in 0..<perWriter {
                    do {
                        let item = try feed.addItem(NewItem(title: "Writer \(index) item \(number)", body: ""))
                        added.withLock { $0.append(item.id) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                writing.withLock { $0 -= 1 }
            }
        }
        for index in 0..<readers {
            let feed = feeds[index % 2]
            spawn {
                // A reader holding a cursor: whatever it is shown next must start right above it.
                // Ids are dense (no failed writes here), so a hole means a lower id committed later.
                var cursor: Int64 = 0
                while cursor < Int64(total) {
                    // Read before the page: if every writer had finished by then, every id is
                    // committed, and an empty page below `total` is a real hole, not a race.
                    let writersDone = writing.withLock { $0 } == 0
                    do {
                        let ids = try feed.page(after: cursor, limit: 100).items.map(\.id).reversed()
                        if let first = ids.first, first != cursor + 1 || ids.last! != cursor + Int64(ids.count) {
                            holes.withLock { $0.append("after \(cursor) got \(Array(ids.prefix(5)))…") }
                        }
                        cursor = ids.last ?? cursor
                        if ids.isEmpty && writersDone {
                            holes.withLock { $0.append("writers done, reader stuck at \(cursor)") }
                            return
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                        return
                    }
                }
            }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 120), .success, "writers and readers finished")
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(holes.withLock { $0 }, [], "a reader saw an id commit below its cursor")
        let ids = added.withLock { $0 }
        XCTAssertEqual(ids.count, total)
        XCTAssertEqual(Set(ids), Set(1...Int64(total)), "unique and dense across both instances")
        XCTAssertEqual(try feeds[1].page(before: nil, limit: 1).items.first?.id, Int64(total))
    }

    func testAnInsertOnOneInstanceReachesTheOtherAtOnceAndMovesItsCaches() throws {
        let open = try PostgresBackend().makeLocation(self)
        let a = makeFeed(store: try open(), newItemsEvery: 0)
        let b = makeFeed(store: try open(), newItemsEvery: 0)
        try a.seedIfEmpty(count: 10)
        XCTAssertEqual(try b.seedIfEmpty(count: 10), 0, "the second instance sees a seeded feed")
        waitFor("b hears about the seed") { (try? b.newestID()) == 10 }
        let revision = b.revisionAfterCheck()

        let item = try a.addItem(NewItem(title: "Posted on A", body: ""))
        // B reads the database: no cache stands between it and the new item.
        let session = SessionID.random()
        XCTAssertEqual(try b.refresh(session: session, after: 10, limit: 10).items, [item])
        XCTAssertEqual(try b.page(before: nil, limit: 1).items, [item])
        // Nor do B's caches, even before the notification arrives.
        XCTAssertGreaterThan(b.revisionAfterCheck(), revision)
        XCTAssertEqual(try b.newestID(), item.id)
        // A does not hear of its own insert: notifications reach A in commit order, so once A
        // has heard of an insert B made after A's, a notice of A's own would have come first.
        let heard = Mutex([Int64?]())
        a.store.observeForeignInserts { newest in heard.withLock { $0.append(newest) } }
        let own = try a.addItem(NewItem(title: "Posted on A again", body: ""))
        let theirs = try b.addItem(NewItem(title: "Posted on B", body: ""))
        waitFor("a hears about b's insert") { heard.withLock { $0.contains(theirs.id) } }
        XCTAssertEqual(heard.withLock { $0 }, [theirs.id], "a heard b's insert and not its own (\(own.id))")
        // The session written through B reads back through A.
        XCTAssertEqual(try a.session(session)?.lastSeenID, item.id)
    }

    func testAChangeOnOneInstanceReachesTheOtherWithTheItemsItTouched() throws {
        let open = try PostgresBackend().makeLocation(self)
        let a = makeFeed(store: try open(), newItemsEvery: 0)
        let b = makeFeed(store: try open(), newItemsEvery: 0)
        try a.seedIfEmpty(count: 5)
        waitFor("b hears about the seed") { (try? b.newestID()) == 5 }
        XCTAssertEqual(try b.sequence(), 5)
        let heard = Mutex<[ChangeNotice]>([])
        b.observeChanges { notice in heard.withLock { $0.append(notice) } }

        let edit = try a.edit(2, to: NewItem(title: "Edited on A", body: ""))
        // The shared check sees the new number and reads the log before anyone is answered.
        _ = b.revisionAfterCheck()
        XCTAssertEqual(try b.sequence(), edit.sequence)
        XCTAssertEqual(heard.withLock { $0 }, [ChangeNotice(ids: [2], through: edit.sequence)])
        let deletion = try a.delete(4)
        waitFor("b hears about the deletion") { heard.withLock { $0.count } == 2 }
        XCTAssertEqual(heard.withLock { $0.last }, ChangeNotice(ids: [4], through: deletion.sequence))
        XCTAssertEqual(try b.changes(since: 5, limit: 10).changes, [edit, deletion])
        // Edits on both instances are serialized: none overwrites another's version.
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            _ = try? (index % 2 == 0 ? a : b).edit(3, to: NewItem(title: "Edit \(index)", body: ""))
        }
        XCTAssertEqual(try b.item(3)?.version, 21)
    }

    func testTwoInstancesMakeTheDemosChangesAtTheRateTogetherNotEach() throws {
        let open = try PostgresBackend().makeLocation(self)
        let clock = ManualClock(testNow)
        let a = makeFeed(store: try open(), clock: clock, newItemsEvery: 0)
        let b = makeFeed(store: try open(), clock: clock, newItemsEvery: 0)
        XCTAssertTrue(try a.dueChurn(editsPerMinute: 600, deletesPerMinute: 60) == (0, 0), "counting starts")
        clock.advance(by: 1)
        XCTAssertTrue(try b.dueChurn(editsPerMinute: 600, deletesPerMinute: 60) == (10, 1))
        XCTAssertTrue(try a.dueChurn(editsPerMinute: 600, deletesPerMinute: 60) == (0, 0), "b made this second's")
        clock.advance(by: 0.5)
        XCTAssertTrue(try a.dueChurn(editsPerMinute: 600, deletesPerMinute: 60) == (5, 0))
    }

    func testAResetOnOneInstanceReachesTheOtherAsAReset() throws {
        let open = try PostgresBackend().makeLocation(self)
        let a = makeFeed(store: try open(), newItemsEvery: 0)
        let b = makeFeed(store: try open(), newItemsEvery: 0)
        try a.seedIfEmpty(count: 10)
        waitFor("b hears about the seed") { (try? b.newestID()) == 10 }
        let resets = Mutex<[Int64?]>([])
        let inserts = Mutex<[Int64?]>([])
        b.observeResets { newest in resets.withLock { $0.append(newest) } }
        b.observeInserts { newest in inserts.withLock { $0.append(newest) } }
        let identity = try b.feedID()

        XCTAssertEqual(try a.resetToDemo(count: 3), 13)
        waitFor("b hears about the reset") { resets.withLock { $0 } == [13] }
        XCTAssertNotEqual(try b.feedID(), identity)
        XCTAssertEqual(try b.feedID(), try a.feedID())
        XCTAssertEqual(try b.newestID(), 13)
        XCTAssertEqual(try b.page(before: nil, limit: 10).items.map(\.id), [13, 12, 11])
        // Emptied on A: B's newest id goes, though ids never do.
        try a.resetToDemo(count: 0)
        waitFor("b hears about the second reset") { resets.withLock { $0 } == [13, nil] }
        XCTAssertNil(try b.newestID())
        XCTAssertEqual(inserts.withLock { $0 }, [], "a reset's items are the new feed, not inserts into the old one")
    }

    func testWhileTheDatabaseRefusesConnectionsCallsFailAndThenRecoverByThemselves() throws {
        let url = try PostgresBackend.makeDatabase(self)
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let feed = makeFeed(store: try PostgresStore(url: url, poolSize: 3), newItemsEvery: 0)
        try feed.seedIfEmpty(count: 5)
        let revision = feed.revisionAfterCheck()

        try PostgresBackend.administer("""
            ALTER DATABASE \(name) ALLOW_CONNECTIONS false;
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)';
            """)
        XCTAssertThrowsError(try feed.page(before: nil, limit: 5)) { error in
            XCTAssertTrue(error is StoreError, "\(error)")
        }
        XCTAssertThrowsError(try feed.addItem(NewItem(title: "While down", body: "")))
        XCTAssertThrowsError(try feed.checkHealth())

        try PostgresBackend.administer("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.id), [5, 4, 3, 2, 1], "nothing lost, nothing half-written")
        XCTAssertEqual(try feed.addItem(NewItem(title: "Back", body: "")).id, 6)
        // The listener reconnects too, and says inserts may have been missed.
        waitFor("the listener reconnects") { feed.revisionAfterCheck() > revision + 1 }
    }

    func testADeadPooledConnectionIsReplacedWithoutFailingTheCall() throws {
        let url = try PostgresBackend.makeDatabase(self)
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let feed = makeFeed(store: try PostgresStore(url: url, poolSize: 2), newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        try PostgresBackend.administer(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        // The pool's connection died while idle; nothing was sent on it, so the call is retried.
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.count, 3)
        XCTAssertEqual(try feed.addItem(NewItem(title: "Still fine", body: "")).id, 4)
    }

    func testARefreshThatOnlyStampsItsSessionDoesNotWaitForAnInsert() throws {
        let url = try PostgresBackend.makeDatabase(self)
        let feed = makeFeed(store: try PostgresStore(url: url, poolSize: 2), newItemsEvery: 0)
        try feed.seedIfEmpty(count: 5)
        // Another process is inserting: it holds the insert lock in an open transaction.
        let inserter = try PGConnection(settings: PGSettings(url: url, defaultPoolSize: 1))
        try inserter.execute("BEGIN; SELECT pg_advisory_xact_lock(\(PostgresStore.insertLockKey))")
        let refreshed = DispatchSemaphore(value: 0)
        feed.refresh(session: SessionID.random(), after: nil, limit: 10) { result in
            if case .success = result { refreshed.signal() }
        }
        XCTAssertEqual(refreshed.wait(timeout: .now() + 20), .success, "the refresh went through while the insert lock was held")
        // A post waits for the lock, and goes through once it is released.
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if (try? feed.addItem(NewItem(title: "After the lock", body: ""))) != nil { posted.signal() }
        }
        try inserter.execute("COMMIT")
        XCTAssertEqual(posted.wait(timeout: .now() + 20), .success)
    }

    func testRefreshesOfOneSessionOnTwoInstancesAreAllCounted() throws {
        let open = try PostgresBackend().makeLocation(self)
        let feeds = [makeFeed(store: try open(), newItemsEvery: 0), makeFeed(store: try open(), newItemsEvery: 0)]
        try feeds[0].seedIfEmpty(count: 3)
        let session = SessionID.random()
        let answered = DispatchGroup()
        let failures = Mutex(0)
        for index in 0..<120 {
            answered.enter()
            feeds[index % 2].refresh(session: session, after: nil, limit: 10) { result in
                if case .failure = result { failures.withLock { $0 += 1 } }
                answered.leave()
            }
        }
        XCTAssertEqual(answered.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(try feeds[1].session(session)?.refreshCount, 120, "no refresh overwrote another's count")
    }
}

import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

class RefreshTests: FeedStoreTestCase {
    func testRefreshGeneratesNothingBeforeTheIntervalAndOneToThreeItemsAfterIt() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock)
        try feed.seedIfEmpty(count: 20)
        let session = SessionID.random()

        let first = try feed.refresh(session: session, after: 20, limit: 10)
        XCTAssertEqual(first.items, [], "right after seeding nothing is due")

        clock.advance(by: 4)
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 10).items, [])

        clock.advance(by: 1)  // 5 s since the seed
        let due = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertEqual(due.items.map(\.id), [21])
        XCTAssertFalse(due.gap)
        XCTAssertLessThanOrEqual(due.items[0].createdAt, clock.now())

        clock.advance(by: 12)  // floor(12 / 5) = 2
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 10).items.map(\.id), [23, 22])

        clock.advance(by: 3600)  // capped at 3
        let capped = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertEqual(capped.items.map(\.id), [26, 25, 24])
        XCTAssertEqual(capped.items.map(\.createdAt), capped.items.map(\.createdAt).sorted(by: >))
        XCTAssertEqual(capped.items.first?.createdAt, clock.now())
        XCTAssertGreaterThanOrEqual(capped.items.last!.createdAt, clock.now().addingTimeInterval(-10))
    }

    func testGeneratorOffMeansRefreshNeverAddsItems() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        try feed.seedIfEmpty(count: 5)
        clock.advance(by: 3600)
        XCTAssertEqual(try feed.refresh(session: .random(), after: 5, limit: 10).items, [])
        XCTAssertEqual(try feed.newestID(), 5)
    }

    func testAnUnseededFeedStartsGeneratingOneIntervalAfterTheFirstRefresh() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock)
        let session = SessionID.random()
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 10).items, [])
        clock.advance(by: 5)
        let first = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertEqual(first.items.map(\.id), [1])
        XCTAssertEqual(try feed.newestID(), 1)
    }

    func testAddingAnItemRestartsTheGeneratorInterval() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock)
        try feed.seedIfEmpty(count: 5)
        clock.advance(by: 4)
        let added = try feed.addItem(NewItem(title: "Mine", body: "", author: nil))
        clock.advance(by: 4)  // 8 s since the seed but only 4 s since the added item
        XCTAssertEqual(try feed.refresh(session: .random(), after: 5, limit: 10).items, [added])
    }

    func testRefreshReturnsTheNewestItemsAboveTheBaselineAndFlagsTheGap() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 50)
        let result = try feed.refresh(session: .random(), after: 10, limit: 5)
        XCTAssertEqual(result.items.map(\.id), [50, 49, 48, 47, 46])
        XCTAssertTrue(result.gap, "11...45 were skipped")

        let noGap = try feed.refresh(session: .random(), after: 45, limit: 5)
        XCTAssertEqual(noGap.items.map(\.id), [50, 49, 48, 47, 46])
        XCTAssertFalse(noGap.gap)
    }

    func testBaselineFallsBackToTheSessionsLastSeenID() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        try feed.seedIfEmpty(count: 10)
        let session = SessionID.random()

        let first = try feed.refresh(session: session, after: nil, limit: 4)
        XCTAssertEqual(first.items.map(\.id), [10, 9, 8, 7], "a new session's baseline is 0")
        XCTAssertTrue(first.gap)
        XCTAssertEqual(try feed.session(session)?.lastSeenID, 10)

        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 4).items, [])
        let added = try feed.addItem(NewItem(title: "New", body: "", author: nil))
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 4).items, [added])
    }

    func testRefreshStampsTheSessionAndLastUpdatedNeverMovesBack() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        try feed.seedIfEmpty(count: 10)
        let session = SessionID.random()
        XCTAssertNil(try feed.session(session))

        let first = try feed.refresh(session: session, after: 6, limit: 10)
        XCTAssertEqual(first.lastUpdated, testNow)
        XCTAssertEqual(try feed.session(session),
                       SessionState(lastUpdated: testNow, lastSeenID: 10, refreshCount: 1))

        clock.advance(by: 60)
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 10).lastUpdated, testNow.addingTimeInterval(60))

        clock.set(testNow.addingTimeInterval(-3600))  // the clock steps back
        let back = try feed.refresh(session: session, after: 2, limit: 10)
        XCTAssertEqual(back.lastUpdated, testNow.addingTimeInterval(60), "lastUpdated never moves back")
        XCTAssertEqual(back.items.map(\.id), [10, 9, 8, 7, 6, 5, 4, 3], "an explicit older cursor is honoured")
        XCTAssertEqual(try feed.session(session),
                       SessionState(lastUpdated: testNow.addingTimeInterval(60), lastSeenID: 10, refreshCount: 3),
                       "lastSeenID does not shrink to an older cursor")
    }

    func testACursorBeyondTheNewestItemDoesNotHideLaterItems() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        let session = SessionID.random()
        XCTAssertEqual(try feed.refresh(session: session, after: 1_000_000, limit: 10).items, [])
        XCTAssertEqual(try feed.session(session)?.lastSeenID, 3)
        let added = try feed.addItem(NewItem(title: "Later", body: "", author: nil))
        XCTAssertEqual(try feed.refresh(session: session, after: nil, limit: 10).items, [added])
    }

    func testAFailedRefreshChangesNothing() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock)
        try feed.seedIfEmpty(count: 5)
        let session = SessionID.random()
        _ = try feed.refresh(session: session, after: nil, limit: 10)
        let before = try XCTUnwrap(try feed.session(session))
        let revision = feed.revisionAfterCheck()

        // Break the session write, which runs last, after the generator has inserted.
        try backend.breakSessionWrites(on: feed.store)
        clock.advance(by: 60)
        XCTAssertThrowsError(try feed.refresh(session: session, after: nil, limit: 10)) { error in
            XCTAssertTrue("\(error)".contains("simulated failure"), "\(error)")
        }
        XCTAssertEqual(try feed.session(session), before, "not stamped")
        XCTAssertEqual(try feed.newestID(), 5, "generated items rolled back with the stamp")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.count, 5)
        XCTAssertEqual(feed.revisionAfterCheck(), revision)

        try backend.repairSessionWrites(on: feed.store)
        let after = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertEqual(after.items.count, 3, "the items due are generated once it works again")
        XCTAssertEqual(try feed.session(session)?.refreshCount, 2)
    }

    func testConcurrentRefreshesOfOneSessionAreAllCounted() throws {
        // On SQLite: one in-memory connection, then a file with a reader pool.
        for (path, store) in [("first", try makeStore()), ("second", try backend.makeLocation(self)())] {
            let clock = ManualClock(testNow)
            let feed = PulldownFeedTests.makeFeed(store: store, clock: clock)
            try feed.seedIfEmpty(count: 100)
            clock.advance(by: 30)
            let session = SessionID.random()
            let failures = Mutex(0)
            let returned = Mutex([Int64]())
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                do {
                    let result = try feed.refresh(session: session, after: 100, limit: 10)
                    returned.withLock { $0 += result.items.map(\.id) }
                    _ = try feed.page(before: nil, limit: 10)
                    if index % 8 == 0 { clock.advance(by: 5) }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            XCTAssertEqual(failures.withLock { $0 }, 0, path)
            XCTAssertEqual(try feed.session(session)?.refreshCount, 64, path)
            let newest = try XCTUnwrap(feed.newestID())
            XCTAssertEqual(try feed.session(session)?.lastSeenID, newest, path)
            XCTAssertEqual(Set(returned.withLock { $0 }), Set(101...newest), "every generated item reached someone: \(path)")
        }
    }

    func testGroupCommittedRefreshesAreEachAnsweredAndCounted() throws {
        let feed = try makeFeed(clock: ManualClock(testNow), newItemsEvery: 0)
        try feed.seedIfEmpty(count: 30)
        let sessions = (0..<8).map { _ in SessionID.random() }
        let answered = DispatchGroup()
        let results = Mutex<[Int: RefreshResult]>([:])
        for index in 0..<200 {
            answered.enter()
            // Every third refresh names an explicit baseline, the rest use the session's own.
            let after: Int64? = index % 3 == 0 ? 25 : nil
            feed.refresh(session: sessions[index % sessions.count], after: after, limit: 10) { result in
                if case .success(let value) = result { results.withLock { $0[index] = value } }
                answered.leave()
            }
        }
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(results.withLock { $0.count }, 200, "every refresh succeeded")
        for session in sessions {
            XCTAssertEqual(try feed.session(session)?.refreshCount, 25)
            XCTAssertEqual(try feed.session(session)?.lastSeenID, 30)
        }
        // The first refresh of each session (no baseline yet) saw the newest page with a gap.
        let first = try XCTUnwrap(results.withLock { $0[1] })
        XCTAssertEqual(first.items.map(\.id), Array((21...30).reversed()))
        XCTAssertTrue(first.gap)
        XCTAssertEqual(results.withLock { $0[3] }?.items.map(\.id), Array((26...30).reversed()))
    }

    func testAFailedGroupCommitFailsItsRefreshesAndChangesNothing() throws {
        let feed = try makeFeed(clock: ManualClock(testNow), newItemsEvery: 0)
        try feed.seedIfEmpty(count: 5)
        let session = SessionID.random()
        try backend.breakSessionWrites(on: feed.store)
        let answered = DispatchGroup()
        let failures = Mutex(0)
        for _ in 0..<20 {
            answered.enter()
            feed.refresh(session: session, after: nil, limit: 10) { result in
                if case .failure = result { failures.withLock { $0 += 1 } }
                answered.leave()
            }
        }
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(failures.withLock { $0 }, 20)
        XCTAssertNil(try feed.session(session), "nothing stamped")
        try backend.repairSessionWrites(on: feed.store)
    }
}

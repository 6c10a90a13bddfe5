import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

class SessionTests: FeedStoreTestCase {
    func testSessionsPersistAcrossReopeningTheSameFile() throws {
        let open = try backend.makeLocation(self)
        let session = SessionID.random()
        do {
            let feed = PulldownFeedTests.makeFeed(store: try open(), newItemsEvery: 0)
            try feed.seedIfEmpty(count: 12)
            _ = try feed.refresh(session: session, after: nil, limit: 5)
            _ = try feed.refresh(session: session, after: nil, limit: 5)
        }
        let reopened = PulldownFeedTests.makeFeed(store: try open(), newItemsEvery: 0)
        XCTAssertEqual(try reopened.session(session),
                       SessionState(lastUpdated: testNow, lastSeenID: 12, refreshCount: 2))
        XCTAssertEqual(try reopened.newestID(), 12)
        XCTAssertEqual(try reopened.seedIfEmpty(count: 12), 0, "a seeded store is not seeded again")
    }

    func testReadsNeverCreateASession() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 10)
        let session = SessionID.random()
        _ = try feed.page(before: nil, limit: 5)
        _ = try feed.page(after: 3, limit: 5)
        try feed.checkHealth()
        XCTAssertNil(try feed.session(session))
        XCTAssertNil(try feed.session(session), "asking twice still creates nothing")
        let rows = try backend.integer("SELECT count(*) FROM sessions", on: feed.store)
        XCTAssertEqual(rows, 0)
    }

    func testIdleSessionsExpireAndActiveOnesStay() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0, sessionTTL: 3600)
        let idle = SessionID.random()
        let active = SessionID.random()
        _ = try feed.refresh(session: idle, after: nil, limit: 5)
        _ = try feed.refresh(session: active, after: nil, limit: 5)

        clock.advance(by: 3000)
        _ = try feed.refresh(session: active, after: nil, limit: 5)
        XCTAssertEqual(try feed.expireIdleSessions(), 0, "nobody is idle for an hour yet")

        clock.advance(by: 601)
        XCTAssertEqual(try feed.expireIdleSessions(), 1)
        XCTAssertNil(try feed.session(idle))
        XCTAssertEqual(try feed.session(active)?.refreshCount, 2)
    }

    func testSessionIDHexIs32LowercaseCharactersAndRoundTrips() throws {
        let id = SessionID.random()
        XCTAssertEqual(id.hex.count, 32)
        XCTAssertEqual(id.hex, id.hex.lowercased())
        XCTAssertEqual(SessionID(hex: id.hex), id)
        XCTAssertNotEqual(SessionID.random(), id)
        XCTAssertNil(SessionID(hex: id.hex.uppercased()))
        XCTAssertNil(SessionID(hex: String(id.hex.dropLast())))
        XCTAssertEqual(SessionID(hex: "000102030405060708090a0b0c0d0e0f")?.bytes, Array(0...15))
    }
}

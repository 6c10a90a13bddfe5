import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

class SeedingTests: FeedStoreTestCase {
    private func allItems(_ feed: Feed) throws -> [Item] {
        try feed.page(before: nil, limit: 100).items
    }

    func testSeedingIsDeterministicForTheSameCount() throws {
        let first = try makeFeed()
        let second = try makeFeed(clock: ManualClock(testNow.addingTimeInterval(86400)))
        try first.seedIfEmpty(count: 50)
        try second.seedIfEmpty(count: 50)
        let a = try allItems(first)
        let b = try allItems(second)
        XCTAssertEqual(a.map(\.title), b.map(\.title))
        XCTAssertEqual(a.map(\.body), b.map(\.body))
        XCTAssertEqual(a.map(\.author), b.map(\.author))
        XCTAssertEqual(a.map(\.userFields), b.map(\.userFields), "the same pictures")
        XCTAssertTrue(a.allSatisfy { $0.userFields.contains(#""avatar":"#) }, "every seeded item has an avatar")
        XCTAssertGreaterThan(Set(a.map(\.title)).count, 30, "titles vary")
        XCTAssertGreaterThan(Set(a.map(\.author)).count, 10, "a crowd of authors")
        XCTAssertTrue(a.allSatisfy { !$0.title.isEmpty && $0.title.count <= 200 && $0.body.hasSuffix(".") })
    }

    func testSeedingSpreadsItemsOverSeveralDaysOldestFirst() throws {
        let feed = try makeFeed()
        XCTAssertEqual(try feed.seedIfEmpty(count: 100), 100)
        let items = try allItems(feed)
        XCTAssertEqual(items.map(\.createdAt), items.map(\.createdAt).sorted(by: >), "ids grow with time")
        let newest = try XCTUnwrap(items.first?.createdAt)
        let oldest = try XCTUnwrap(items.last?.createdAt)
        XCTAssertLessThanOrEqual(newest, testNow)
        XCTAssertGreaterThan(newest, testNow.addingTimeInterval(-3600), "something from today")
        XCTAssertLessThan(oldest, testNow.addingTimeInterval(-3 * 86400), "reaches back three days or more")
        XCTAssertGreaterThanOrEqual(oldest, testNow.addingTimeInterval(-4 * 86400))

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let days = Set(items.map { calendar.startOfDay(for: $0.createdAt) })
        XCTAssertGreaterThanOrEqual(days.count, 4, "today, yesterday and older sections")
        XCTAssertTrue(items.allSatisfy { $0.createdAt.timeIntervalSince1970.rounded(.down) == $0.createdAt.timeIntervalSince1970 })
    }

    func testSeedingOnlyFillsAnEmptyFeed() throws {
        let feed = try makeFeed()
        _ = try feed.addItem(NewItem(title: "Already here", body: "", author: nil))
        XCTAssertEqual(try feed.seedIfEmpty(count: 10), 0)
        XCTAssertEqual(try feed.newestID(), 1)
        XCTAssertEqual(try feed.itemCount(), 1)
        XCTAssertEqual(try feed.seedIfEmpty(count: 0), 0)
    }

    func testSplitMix64MatchesTheReferenceSequence() {
        // First outputs of the reference splitmix64.c for seed 1234567.
        var rng = SplitMix64(seed: 1_234_567)
        XCTAssertEqual(rng.next(), 6_457_827_717_110_365_317)
        XCTAssertEqual(rng.next(), 3_203_168_211_198_807_973)
    }
}

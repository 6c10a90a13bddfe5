import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// The demo items added after the seed come from `--seed`: the same seed gives the same items in
/// the same order, however they are added, on every run.
class DemoSequenceTests: FeedStoreTestCase {
    /// What tells one demo item from another, in the feed's order.
    private func looks(_ items: [Item]) -> [String] {
        items.map { "\($0.title) | \($0.author) | \($0.body) | \($0.userFields)" }
    }

    func testTheSameSeedAddsTheSameItemsInTheSameOrderHoweverTheyAreAdded() throws {
        let clock = ManualClock(testNow)
        let first = try makeFeed(clock: clock, newItemsEvery: 5, demoSeed: 7)
        let second = try makeFeed(newItemsEvery: 0, demoSeed: 7)
        try first.seedIfEmpty(count: 5)
        try second.seedIfEmpty(count: 5)
        // Two batches, then three due items on a refresh ...
        _ = try first.addDemoItems(count: 4)
        _ = try first.addDemoItems(count: 2)
        clock.advance(by: 3600)
        XCTAssertEqual(try first.refresh(session: SessionID.random(), after: 11, limit: 10).items.count, 3)
        // ... against one, two and six at once, and a post in between, which takes no place in it.
        var added = try oldestFirst(second.addDemoItems(count: 1)) + oldestFirst(second.addDemoItems(count: 2))
        _ = try second.addItem(NewItem(title: "Posted", body: ""))
        added += try oldestFirst(second.addDemoItems(count: 6))
        XCTAssertEqual(looks(try oldestFirst(first.page(before: nil, limit: 9).items)), looks(added))
        XCTAssertEqual(Set(added.map(\.title)).count, 9, "nine items, not one nine times")
        XCTAssertTrue(added.contains { $0.userFields.contains(#""image""#) }, "pictures come with them: \(looks(added))")
    }

    private func oldestFirst(_ items: [Item]) -> [Item] { items.reversed() }

    func testAnotherSeedAddsOtherItems() throws {
        let one = try makeFeed(demoSeed: 1)
        let other = try makeFeed(demoSeed: 2)
        XCTAssertNotEqual(looks(try one.addDemoItems(count: 5)), looks(try other.addDemoItems(count: 5)))
    }

    func testAResetStartsTheSequenceOverAndARestartGoesOn() throws {
        let open = try backend.makeLocation(self)
        let feed = PulldownFeedTests.makeFeed(store: try open(), demoSeed: 3)
        let firstFour = try oldestFirst(feed.addDemoItems(count: 4))
        try feed.resetToDemo(count: 0)
        let two = try oldestFirst(feed.addDemoItems(count: 2))
        let reopened = PulldownFeedTests.makeFeed(store: try open(), demoSeed: 3)
        let twoMore = try oldestFirst(reopened.addDemoItems(count: 2))
        XCTAssertEqual(looks(two + twoMore), looks(firstFour))
    }

    func testDemoItemsComeNewestFirstAtOneTimeAndReachObservers() throws {
        let feed = try makeFeed(demoSeed: 9)
        let heard = expectation(description: "the insert is announced")
        feed.observeInserts { newest in if newest == 3 { heard.fulfill() } }
        let items = try feed.addDemoItems(count: 3)
        XCTAssertEqual(items.map(\.id), [3, 2, 1])
        XCTAssertEqual(Set(items.map(\.createdAt)), [testNow])
        XCTAssertEqual(try feed.page(before: nil, limit: 3).items, items)
        wait(for: [heard], timeout: 10)
    }
}

import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// The demo's edits and deletions: when they are due (a pure schedule), what an edit looks like,
/// and which items they choose.
final class DemoChurnTests: XCTestCase {
    func testTheScheduleMakesTheRateAndCarriesWhatIsNotYetWhole() {
        // 90 a minute is 1.5 a second.
        XCTAssertEqual(ChurnSchedule(perMinute: 90, since: 100, now: 101), ChurnSchedule(due: 1, through: 100 + 60.0 / 90))
        let next = ChurnSchedule(perMinute: 90, since: 100 + 60.0 / 90, now: 102)
        XCTAssertEqual(next.due, 2, "three in two seconds, all told")
        XCTAssertEqual(next.through, 102, accuracy: 1e-9)
        XCTAssertEqual(ChurnSchedule(perMinute: 90, since: 100, now: 100.5).due, 0)
    }

    func testTheScheduleStartsCountingWhenFirstAskedAndNeverBursts() {
        XCTAssertEqual(ChurnSchedule(perMinute: 600, since: nil, now: 50), ChurnSchedule(due: 0, through: 50))
        XCTAssertEqual(ChurnSchedule(perMinute: 600, since: 50, now: 3_600), ChurnSchedule(due: 10, through: 3_600),
                       "an hour missed is a second's worth, and the rest is dropped")
        XCTAssertEqual(ChurnSchedule(perMinute: 1, since: 0, now: 3_600), ChurnSchedule(due: 1, through: 3_600), "at least one")
        XCTAssertEqual(ChurnSchedule(perMinute: 0, since: 10, now: 20), ChurnSchedule(due: 0, through: 20), "off")
        XCTAssertEqual(ChurnSchedule(perMinute: 60, since: 30, now: 20), ChurnSchedule(due: 0, through: 20), "a clock set back")
    }

    func testAnEditLooksLikeARealOneAndIsTheSameForTheSameVersion() {
        let item = Item(id: 7, title: "Why the coffee grinder matters", body: "", author: "Ada Park", createdAt: testNow)
        var kinds = Set<String>()
        for version in Int64(1)...40 {
            let versioned = Item(id: 7, title: item.title, body: "", author: "Ada Park", createdAt: testNow, version: version)
            let edit = DemoEdit.of(versioned)
            XCTAssertEqual(edit, DemoEdit.of(versioned))
            switch edit {
            case .title(let title):
                kinds.insert("title")
                XCTAssertNotEqual(title, item.title)
                XCTAssertTrue(title.hasSuffix(" coffee grinder matters"), "another opener, the same subject: \(title)")
            case .image(let json):
                kinds.insert("image")
                XCTAssertTrue(json.hasPrefix(#"{"url":"/media/demo/image-"#) && json.contains(#""width":"#), json)
            case .likes(let change):
                kinds.insert("likes")
                XCTAssertTrue((-2...9).contains(change))
            }
        }
        XCTAssertEqual(kinds, ["title", "image", "likes"])
        var rng = SplitMix64(seed: 1)
        XCTAssertEqual(DemoEdit.reworded("My own title", using: &rng), "My own title (updated)")
        XCTAssertEqual(DemoEdit.reworded("My own title (updated)", using: &rng), "My own title")
    }

    func testTargetsAreDifferentItemsFromTheNewestAndTheRestAlikeAndSkipDeletedOnes() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 400)
        for id in Int64(1)...100 { try feed.delete(id) }
        let targets = try feed.churnTargets(count: 40)
        XCTAssertEqual(targets.count, 40)
        XCTAssertEqual(Set(targets).count, 40, "never the same item twice")
        XCTAssertTrue(targets.allSatisfy { $0 > 100 }, "deleted items are never chosen")
        XCTAssertTrue(targets.contains { $0 > 350 } && targets.contains { $0 < 300 }, "recent and older alike: \(targets)")
        XCTAssertEqual(try feed.churnTargets(count: 40), targets, "the same history chooses the same items")
        let empty = try makeFeed(newItemsEvery: 0)
        XCTAssertEqual(try empty.churnTargets(count: 3), [])
    }

    func testDueChangesAreCountedOffInTheStore() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        XCTAssertEqual(try feed.dueChurn(editsPerMinute: 120, deletesPerMinute: 60).edits, 0, "counting starts now")
        clock.advance(by: 0.5)
        XCTAssertTrue(try feed.dueChurn(editsPerMinute: 120, deletesPerMinute: 60) == (1, 0))
        clock.advance(by: 0.5)
        XCTAssertTrue(try feed.dueChurn(editsPerMinute: 120, deletesPerMinute: 60) == (1, 1))
    }
}

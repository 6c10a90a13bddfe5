import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// Edits, deletions and the change log, on every store.
class ChangeTests: FeedStoreTestCase {
    private func fields(_ title: String, body: String = "", author: String? = nil, userFields: String = "") -> NewItem {
        NewItem(title: title, body: body, author: author, userFields: userFields)
    }

    func testAnEditIsANewVersionNumberedFromTheSequenceTheIDsComeFrom() throws {
        let clock = ManualClock(testNow)
        let feed = try makeFeed(clock: clock, newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        let before = try XCTUnwrap(try feed.item(2))
        XCTAssertEqual(before.version, 1)
        XCTAssertNil(before.editedAt)
        XCTAssertEqual(try feed.sequence(), 3)

        clock.advance(by: 60)
        let change = try feed.edit(2, to: fields("Reworded", body: "New body", author: before.author, userFields: #"{"likes":4}"#))
        XCTAssertEqual(change.sequence, 4, "the next number after the newest id")
        guard case .updated(let edited) = change.kind else { return XCTFail("not an update: \(change)") }
        XCTAssertEqual(edited.version, 2)
        XCTAssertEqual(edited.editedAt, testNow.addingTimeInterval(60))
        XCTAssertEqual(edited.createdAt, before.createdAt, "the edit leaves the item's time and place")
        XCTAssertEqual(try feed.item(2), edited, "read back as answered")
        XCTAssertEqual(try feed.sequence(), 4)
        XCTAssertEqual(try feed.addItem(fields("After the edit")).id, 5, "an insert goes on from the edit's number")
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.id), [5, 3, 2, 1], "ids keep their order; 4 was a change")
    }

    func testAnEditThatChangesNothingIsNoNewVersion() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        let item = try feed.addItem(fields("Same", body: "text"))
        let untouched = try feed.change(item.id, .edit { _ in NewItem(title: " Same ", body: "text\r\n", author: nil) })
        XCTAssertEqual(untouched, .unchanged(item), "the same fields once checked (trimmed, Anonymous)")
        XCTAssertEqual(try feed.change(item.id, .edit { _ in nil }), .unchanged(item))
        XCTAssertEqual(try feed.sequence(), item.id, "nothing numbered")
        XCTAssertEqual(try feed.changes(since: 0, limit: 10).changes, [])
    }

    func testEditsAreCheckedAsPostsAreAndARefusalWritesNothing() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        let item = try feed.addItem(fields("Valid"))
        XCTAssertThrowsError(try feed.edit(item.id, to: fields("  "))) { error in
            XCTAssertEqual(error as? FeedError, .invalid([.init(name: "title", reason: "must be 1 to 200 characters after trimming")]))
        }
        struct Refused: Error {}
        XCTAssertThrowsError(try feed.change(item.id, .delete { _ in throw Refused() })) { XCTAssertTrue($0 is Refused) }
        XCTAssertEqual(try feed.item(item.id), item)
        XCTAssertEqual(try feed.sequence(), item.id)
    }

    func testAMissingOrDeletedItemCannotBeChanged() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 2)
        XCTAssertThrowsError(try feed.edit(9, to: fields("Nope"))) { XCTAssertEqual($0 as? FeedError, .noSuchItem(9)) }
        XCTAssertEqual(try feed.delete(1), Change(sequence: 3, kind: .deleted(1)))
        XCTAssertThrowsError(try feed.delete(1)) { XCTAssertEqual($0 as? FeedError, .deleted(1)) }
        XCTAssertThrowsError(try feed.edit(1, to: fields("Back"))) { XCTAssertEqual($0 as? FeedError, .deleted(1)) }
        XCTAssertThrowsError(try feed.item(1)) { XCTAssertEqual($0 as? FeedError, .deleted(1)) }
        XCTAssertNil(try feed.item(3), "a change's number names no item")
    }

    func testADeletedItemKeepsItsPlaceSoPagesMayBeShortButNeverMove() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 10)
        try feed.delete(7)
        try feed.delete(6)
        let page = try feed.page(before: 9, limit: 4)
        XCTAssertEqual(page.items.map(\.id), [8, 5], "places 8 to 5, the deleted ones not shown")
        XCTAssertEqual(page.edge, 5)
        XCTAssertTrue(page.hasMore)
        try feed.delete(5)
        let shorter = try feed.page(before: 9, limit: 4)
        XCTAssertEqual(shorter.items.map(\.id), [8])
        XCTAssertEqual(shorter.edge, 5, "the cursor of the next page stays where it was")
        XCTAssertTrue(shorter.hasMore, "a short page is not the end")
        let empty = try feed.page(before: 8, limit: 3)
        XCTAssertEqual(empty.items, [])
        XCTAssertEqual(empty.edge, 5)
        XCTAssertTrue(empty.hasMore)
        XCTAssertEqual(try feed.page(before: 7, limit: 10).items.map(\.id), [4, 3, 2, 1], "a deleted item's id is still a cursor")
        let above = try feed.page(after: 4, limit: 3)
        XCTAssertEqual(above.items, [])
        XCTAssertEqual(above.edge, 7)
        XCTAssertTrue(above.hasMore)
        XCTAssertEqual(try feed.latestItems(newerThan: 4, limit: 3).items.map(\.id), [10, 9, 8], "the newest items skip tombstones")
        XCTAssertEqual(try feed.itemCount(), 7)
    }

    func testTheLogListsEachItemsLatestChangeOldestFirst() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        try feed.edit(1, to: fields("One, once"))
        try feed.edit(2, to: fields("Two"))
        let again = try feed.edit(1, to: fields("One, twice"))
        try feed.delete(3)
        let all = try feed.changes(since: 3, limit: 10)
        XCTAssertEqual(all.changes.map(\.sequence), [5, 6, 7], "1's first edit (4) gave way to its second (6)")
        XCTAssertEqual(all.changes[1], again)
        XCTAssertEqual(all.changes[2].kind, .deleted(3))
        XCTAssertFalse(all.hasMore)
        XCTAssertEqual(all.sequence, 7)
        let first = try feed.changes(since: 3, limit: 2)
        XCTAssertEqual(first.changes.map(\.sequence), [5, 6])
        XCTAssertTrue(first.hasMore)
        XCTAssertEqual(first.sequence, 6, "where the next batch starts")
        XCTAssertEqual(try feed.changes(since: 6, limit: 2).changes.map(\.kind), [.deleted(3)])
        let none = try feed.changes(since: 7, limit: 2)
        XCTAssertEqual(none.changes, [])
        XCTAssertEqual(none.sequence, 7)
        _ = try feed.addItem(fields("An insert"))
        XCTAssertEqual(try feed.changes(since: 7, limit: 2).sequence, 8, "inserts are not listed, but counted")
    }

    func testASinceOlderThanTheLogKeepsIsExpired() throws {
        let feed = try makeFeed(newItemsEvery: 0, changesKept: 2)
        try feed.seedIfEmpty(count: 5)
        for id in Int64(1)...4 { try feed.edit(id, to: fields("Edited \(id)")) }   // numbers 6...9
        XCTAssertThrowsError(try feed.changes(since: 5, limit: 10)) { error in
            XCTAssertEqual(error as? FeedError, .changesExpired(since: 5))
        }
        XCTAssertEqual(try feed.changes(since: 7, limit: 10).changes.map(\.sequence), [8, 9], "the newest two are kept")
    }

    func testAResetForgetsTheLogAndExpiresEverySinceBeforeIt() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        try feed.edit(1, to: fields("Edited"))
        try feed.resetToDemo(count: 2)
        // A client that stood at 4 learns of the reset by the feed's new identity; one that
        // stood before could not be told what it missed.
        XCTAssertThrowsError(try feed.changes(since: 3, limit: 10)) { XCTAssertEqual($0 as? FeedError, .changesExpired(since: 3)) }
        let fresh = try feed.changes(since: try feed.sequence(), limit: 10)
        XCTAssertEqual(fresh.changes, [])
        XCTAssertEqual(try feed.page(before: nil, limit: 5).items.map(\.version), [1, 1])
    }

    func testARefreshBringsTheChangesSinceTheSessionsLastOne() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 5)
        let session = SessionID.random()
        let first = try feed.refresh(session: session, after: 5, limit: 10)
        XCTAssertEqual(first.changes, [], "a session that never said where it stands gets no changes")
        XCTAssertEqual(first.sequence, 5)
        let edited = try feed.edit(2, to: fields("Edited"))
        let deleted = try feed.delete(4)
        let second = try feed.refresh(session: session, after: 5, limit: 10)
        XCTAssertEqual(second.changes, [edited, deleted])
        XCTAssertEqual(second.sequence, 7)
        XCTAssertFalse(second.gap)
        XCTAssertEqual(try feed.refresh(session: session, after: 5, limit: 10).changes, [], "none twice")
        // A client may say where it stands itself.
        XCTAssertEqual(try feed.refresh(session: SessionID.random(), after: 5, changes: 6, limit: 10).changes, [deleted])
    }

    func testARefreshFurtherBehindThanItCanBringStartsOverFromTheNewestPage() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        let count = Refresher.maxChanges + 5
        try feed.seedIfEmpty(count: count)
        for id in 1...Int64(Refresher.maxChanges + 1) { try feed.edit(id, to: fields("Edited \(id)")) }
        let answer = try feed.refresh(session: SessionID.random(), after: Int64(count), changes: Int64(count), limit: 3)
        XCTAssertTrue(answer.gap)
        XCTAssertEqual(answer.changes, [])
        XCTAssertEqual(answer.items.map(\.id), [Int64(count), Int64(count - 1), Int64(count - 2)], "the newest page")
    }

    func testChangeObserversHearBeforeTheSequenceMoves() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        try feed.seedIfEmpty(count: 3)
        let heard = Mutex<[(ChangeNotice, Int64?)]>([])
        feed.observeChanges { notice in heard.withLock { $0.append((notice, feed.revision.sequence)) } }
        let revision = feed.revision.current
        let change = try feed.delete(2)
        let notices = heard.withLock { $0 }
        XCTAssertEqual(notices.map(\.0), [ChangeNotice(ids: [2], through: change.sequence)])
        XCTAssertEqual(notices.map(\.1), [3], "the sequence had not moved yet")
        XCTAssertEqual(try feed.sequence(), change.sequence)
        XCTAssertGreaterThan(feed.revision.current, revision)
    }

    func testConcurrentEditsOfOneItemAreEachANewVersion() throws {
        let feed = try makeFeed(newItemsEvery: 0)
        let item = try feed.addItem(fields("Counted"))
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            _ = try? feed.edit(item.id, to: NewItem(title: "Edit \(index)", body: ""))
        }
        XCTAssertEqual(try feed.item(item.id)?.version, 21)
        XCTAssertEqual(try feed.changes(since: item.id, limit: 100).changes.count, 1, "one entry: the latest")
    }
}

import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// Entries held in memory, handed out as a data file's would be.
final class ListedEntries: ImportSource {
    let entries: [ImportedItem]
    let mark: DataSourceMark

    init(_ entries: [ImportedItem], mark: String) {
        self.entries = entries
        self.mark = DataSourceMark(digest: Array(mark.utf8), resume: Array("at \(mark)".utf8))
    }

    func forEachEntry(_ body: (ImportedItem) throws -> Void) throws -> DataSourceMark {
        try entries.forEach(body)
        return mark
    }

    func entries(at numbers: [Int]) throws -> [ImportedItem] { numbers.map { entries[$0] } }
}

/// `Feed.importItems` and `Feed.appendItems`: a data file's entries in one transaction, ordered by
/// time, remembered by the file's mark; entries the file gained added as the newest items.
class ImportTests: FeedStoreTestCase {
    private func entry(_ title: String, at seconds: Double? = nil, fields: String = "") -> ImportedItem {
        ImportedItem(new: NewItem(title: title, body: "", userFields: fields),
                     createdAt: seconds.map { Date(timeIntervalSince1970: $0) })
    }

    func testEntriesAreOrderedByTheirTimeAndWithoutOneTheFirstIsTheNewest() throws {
        let feed = try makeFeed()
        let source = ListedEntries([entry("b", at: 200, fields: #"{"likes":1}"#), entry("a", at: 100), entry("c", at: 300)], mark: "file")
        XCTAssertEqual(try feed.importItems(from: source, replacing: .nothing), 3)
        let items = try feed.page(before: nil, limit: 10).items
        XCTAssertEqual(items.map(\.title), ["c", "b", "a"])
        XCTAssertEqual(items[1].userFields, #"{"likes":1}"#)
        XCTAssertEqual(try feed.dataSourceState(), .filled(source.mark))

        let other = try makeFeed()
        _ = try other.importItems(from: ListedEntries([entry("top"), entry("next"), entry("last")], mark: "f"), replacing: .nothing)
        XCTAssertEqual(try other.page(before: nil, limit: 10).items.map(\.title), ["top", "next", "last"])
    }

    func testMoreThanABatchIsImportedInOrder() throws {
        let feed = try makeFeed()
        let count = Feed.importBatch * 2 + 7
        _ = try feed.importItems(from: ListedEntries((0..<count).map { entry("t\($0)", at: Double($0)) }, mark: "big"), replacing: .nothing)
        XCTAssertEqual(try feed.itemCount(), Int64(count))
        XCTAssertEqual(try feed.page(before: nil, limit: 2).items.map(\.title), ["t\(count - 1)", "t\(count - 2)"])
    }

    func testAGrownFileAddsItsNewEntriesAsTheNewestAndARefusedStoreChangesNothing() throws {
        let feed = try makeFeed()
        let first = ListedEntries([entry("old", at: 100)], mark: "one")
        _ = try feed.importItems(from: first, replacing: .nothing)
        let grown = ListedEntries([entry("new 1", at: 50), entry("new 2")], mark: "two")
        XCTAssertEqual(try feed.appendItems(from: grown, after: first.mark), 2)
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.title), ["new 2", "new 1", "old"])
        XCTAssertEqual(try feed.dataSourceState(), .filled(grown.mark))
        XCTAssertThrowsError(try feed.appendItems(from: ListedEntries([entry("x")], mark: "three"), after: first.mark)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: true))
        }
        XCTAssertEqual(try feed.itemCount(), 3)
    }

    func testAnotherStoreIsRefusedAndResetReplacesItemsAndSessions() throws {
        let feed = try makeFeed()
        _ = try feed.importItems(from: ListedEntries([entry("imported")], mark: "one"), replacing: .nothing)
        _ = try feed.addItem(NewItem(title: "posted", body: ""))
        let session = SessionID.random()
        _ = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertThrowsError(try feed.importItems(from: ListedEntries([entry("other")], mark: "two"), replacing: .nothing)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: true))
        }
        XCTAssertEqual(try feed.importItems(from: ListedEntries([entry("other")], mark: "two"), replacing: .everything), 1)
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.title), ["other"])
        XCTAssertNil(try feed.session(session), "reset forgets sessions")
    }

    func testTheDemoFeedIsReplacedOnlyUntouchedAndABadEntryImportsNothing() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        let session = SessionID.random()
        _ = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertThrowsError(try feed.importItems(from: ListedEntries([entry("x")], mark: "m"), replacing: .nothing)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: false))
        }
        XCTAssertThrowsError(try feed.importItems(from: ListedEntries([entry("fine"), entry("  ")], mark: "m"), replacing: .everything)) {
            guard case .invalidEntry(index: 1, let errors)? = $0 as? ImportError else { return XCTFail("\($0)") }
            XCTAssertEqual(errors.map(\.name), ["title"])
        }
        XCTAssertEqual(try feed.itemCount(), 5, "nothing changed")

        let demoFeed = try feed.feedID()
        XCTAssertEqual(try feed.importItems(from: ListedEntries([entry("mine")], mark: "m"), replacing: .demoFeed), 1)
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.title), ["mine"])
        XCTAssertNil(try feed.session(session), "replacing the demo feed is a reset")
        XCTAssertNotEqual(try feed.feedID(), demoFeed, "a new feed: nothing named by the demo feed's identity answers from it")

        let posted = try makeFeed()
        try posted.seedIfEmpty(count: 5)
        _ = try posted.addItem(NewItem(title: "posted", body: ""))
        XCTAssertThrowsError(try posted.importItems(from: ListedEntries([entry("x")], mark: "m"), replacing: .demoFeed)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: false))
        }
        XCTAssertEqual(try posted.itemCount(), 6, "a post is never replaced without --reset")
    }
}

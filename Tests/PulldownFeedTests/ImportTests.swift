import Foundation
import XCTest
@testable import PulldownFeed
import PulldownTesting

/// `Feed.importItems`: a data file's entries in one transaction, ordered by time, remembered by
/// the file's hash.
class ImportTests: FeedStoreTestCase {
    private func entry(_ title: String, at seconds: Double? = nil, fields: String = "") -> ImportedItem {
        ImportedItem(new: NewItem(title: title, body: "", userFields: fields),
                     createdAt: seconds.map { Date(timeIntervalSince1970: $0) })
    }

    func testEntriesAreOrderedByTheirTimeAndWithoutOneTheFirstIsTheNewest() throws {
        let feed = try makeFeed()
        let hash = Feed.contentHash(Array("file".utf8))
        XCTAssertEqual(try feed.importItems([entry("b", at: 200, fields: #"{"likes":1}"#), entry("a", at: 100), entry("c", at: 300)],
                                            hash: hash, reset: false), .imported(count: 3))
        let items = try feed.page(before: nil, limit: 10).items
        XCTAssertEqual(items.map(\.title), ["c", "b", "a"])
        XCTAssertEqual(items[1].userFields, #"{"likes":1}"#)

        let other = try makeFeed()
        _ = try other.importItems([entry("top"), entry("next"), entry("last")], hash: hash, reset: false)
        XCTAssertEqual(try other.page(before: nil, limit: 10).items.map(\.title), ["top", "next", "last"])
    }

    func testTheSameFileKeepsEverythingAnotherIsRefusedAndResetReplacesItemsAndSessions() throws {
        let feed = try makeFeed()
        let first = Feed.contentHash(Array("one".utf8)), second = Feed.contentHash(Array("two".utf8))
        _ = try feed.importItems([entry("imported")], hash: first, reset: false)
        _ = try feed.addItem(NewItem(title: "posted", body: ""))
        let session = SessionID.random()
        _ = try feed.refresh(session: session, after: nil, limit: 10)
        XCTAssertEqual(try feed.importItems([entry("imported")], hash: first, reset: false), .kept)
        XCTAssertEqual(try feed.itemCount(), 2)
        XCTAssertThrowsError(try feed.importItems([entry("other")], hash: second, reset: false)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: true))
        }
        XCTAssertEqual(try feed.importItems([entry("other")], hash: second, reset: true), .imported(count: 1))
        XCTAssertEqual(try feed.page(before: nil, limit: 10).items.map(\.title), ["other"])
        XCTAssertNil(try feed.session(session), "reset forgets sessions")
    }

    func testADemoStoreIsRefusedAndABadEntryImportsNothing() throws {
        let feed = try makeFeed()
        try feed.seedIfEmpty(count: 5)
        XCTAssertThrowsError(try feed.importItems([entry("x")], hash: [1], reset: false)) {
            XCTAssertEqual($0 as? ImportError, .storeHoldsOtherItems(fromAnotherFile: false))
        }
        XCTAssertThrowsError(try feed.importItems([entry("fine"), entry("  ")], hash: [1], reset: true)) {
            guard case .invalidEntry(index: 1, let errors)? = $0 as? ImportError else { return XCTFail("\($0)") }
            XCTAssertEqual(errors.map(\.name), ["title"])
        }
        XCTAssertEqual(try feed.itemCount(), 5, "nothing changed")
    }
}

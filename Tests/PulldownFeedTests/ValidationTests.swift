import Foundation
import InvalidInput
import XCTest
@testable import PulldownFeed
import PulldownTesting

final class ValidationTests: XCTestCase {
    private func errors(_ new: NewItem) throws -> [InvalidParam] {
        let feed = try makeFeed()
        do {
            _ = try feed.addItem(new)
            return []
        } catch let FeedError.invalid(errors) {
            XCTAssertNil(try feed.newestID(), "a rejected item is not stored")
            return errors
        }
    }

    func testValidationErrorsNameEveryBadField() throws {
        let found = try errors(NewItem(title: "  \n ", body: String(repeating: "b", count: 2001),
                                       author: String(repeating: "a", count: 81)))
        XCTAssertEqual(found, [
            InvalidParam(name: "title", reason: "must be 1 to 200 characters after trimming"),
            InvalidParam(name: "body", reason: "must be at most 2000 characters after trimming"),
            InvalidParam(name: "author", reason: "must be at most 80 characters after trimming"),
        ])
    }

    func testControlCharactersAreRejectedButNewlinesAndTabsAreFineInTheBody() throws {
        XCTAssertEqual(try errors(NewItem(title: "Two\nlines", body: "ok\n\tindented", author: "A\u{7}B")).map(\.name),
                       ["title", "author"])
        XCTAssertEqual(try errors(NewItem(title: "Fine", body: "bell\u{7}", author: nil)).map(\.name), ["body"])
        XCTAssertEqual(try errors(NewItem(title: "Fine", body: "nul\u{0}byte", author: nil)).map(\.name), ["body"])
        XCTAssertEqual(try errors(NewItem(title: "Fine", body: "lone\rreturn", author: nil)).map(\.name), ["body"])
        XCTAssertEqual(try errors(NewItem(title: "Fine", body: "line\r\nbreak\tok", author: nil)), [])
        XCTAssertEqual(try errors(NewItem(title: "A\u{1}", body: "B\u{1}", author: "C\u{1}")), [
            InvalidParam(name: "title", reason: "must not contain control characters"),
            InvalidParam(name: "body", reason: "must not contain control characters other than newline and tab"),
            InvalidParam(name: "author", reason: "must not contain control characters"),
        ])
    }

    func testLengthBoundsAreInclusiveAndCountCharactersAfterTrimming() throws {
        XCTAssertEqual(try errors(NewItem(title: String(repeating: "é", count: 200), body: "",
                                          author: "  " + String(repeating: "x", count: 80) + "  ")), [])
        XCTAssertEqual(try errors(NewItem(title: String(repeating: "t", count: 201), body: "", author: nil)).map(\.name),
                       ["title"])
        XCTAssertEqual(try errors(NewItem(title: "x", body: String(repeating: "b", count: 2000), author: nil)), [])
    }

    func testBlankOrMissingAuthorBecomesAnonymous() throws {
        let feed = try makeFeed()
        XCTAssertEqual(try feed.addItem(NewItem(title: "a", body: "", author: nil)).author, "Anonymous")
        XCTAssertEqual(try feed.addItem(NewItem(title: "b", body: "", author: " \t ")).author, "Anonymous")
        XCTAssertEqual(try feed.addItem(NewItem(title: "c", body: "", author: "Wen")).author, "Wen")
    }
}

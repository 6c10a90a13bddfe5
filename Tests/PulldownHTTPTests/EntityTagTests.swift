import XCTest
@testable import PulldownHTTP

final class EntityTagTests: XCTestCase {
    private let tag = "\"0123456789abcdef\""

    func testStrongTagIsQuotedSixteenHexDigitsAndStable() {
        let first = EntityTag.strong(for: Array("hello".utf8))
        XCTAssertEqual(first, EntityTag.strong(for: Array("hello".utf8)))
        XCTAssertNotEqual(first, EntityTag.strong(for: Array("hellp".utf8)))
        XCTAssertTrue(first.hasPrefix("\"") && first.hasSuffix("\""))
        XCTAssertEqual(first.count, 18)
        // FNV-1a 64 of the empty input is its offset basis.
        XCTAssertEqual(EntityTag.strong(for: []), "\"cbf29ce484222325\"")
    }

    func testSuffixGoesInsideTheQuotes() {
        let tagged = EntityTag.strong(for: [1, 2, 3], suffix: "-gz")
        XCTAssertTrue(tagged.hasSuffix("-gz\""))
        XCTAssertNotEqual(tagged, EntityTag.strong(for: [1, 2, 3]))
    }

    func testExactTagMatches() {
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: tag, etag: tag))
    }

    func testAbsentHeaderNeverMatches() {
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: nil, etag: tag))
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: "", etag: tag))
    }

    func testOtherTagDoesNotMatch() {
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: "\"ffffffffffffffff\"", etag: tag))
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: "0123456789abcdef", etag: tag), "an unquoted tag is another tag")
    }

    func testAnyTagInAListMatches() {
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "\"aaa\", \(tag), \"bbb\"", etag: tag))
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "\"aaa\",\(tag)", etag: tag))
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "\"aaa\" ,\t\(tag)  ", etag: tag))
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: "\"aaa\", \"bbb\"", etag: tag))
    }

    func testWeakFormMatchesByWeakComparison() {
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "W/\(tag)", etag: tag))
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "\"x\", W/\(tag)", etag: tag))
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: tag, etag: "W/\(tag)"))
        XCTAssertFalse(EntityTag.matches(ifNoneMatch: "W/\"other\"", etag: tag))
    }

    func testStarMatchesAnything() {
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: "*", etag: tag))
        XCTAssertTrue(EntityTag.matches(ifNoneMatch: " * ", etag: tag))
    }
}

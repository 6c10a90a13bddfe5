import XCTest
@testable import PulldownApp

final class JSONBodyTests: XCTestCase {
    private func trailing(_ text: String) -> Bool {
        JSONBody.hasTrailingComma(Array(text.utf8))
    }

    func testACommaBeforeACloseIsFound() {
        XCTAssertTrue(trailing(#"{"title": "x",}"#))
        XCTAssertTrue(trailing("[1, 2 ,\n ]"))
        XCTAssertTrue(trailing(#"{"a": [1,], "b": 2}"#))
    }

    func testWellFormedJSONHasNone() {
        XCTAssertFalse(trailing(#"{"title": "x", "body": "y"}"#))
        XCTAssertFalse(trailing("[]"))
        XCTAssertFalse(trailing("{}"))
    }

    func testCommasInsideStringsDoNotCount() {
        XCTAssertFalse(trailing(#"{"title": "a,}"}"#))
        XCTAssertFalse(trailing(#"{"title": "quote \",]"}"#))
        XCTAssertFalse(trailing(#"{"title": "backslash \\", "b": 1}"#))
    }

    func testTopLevelNamesAreCountedWithRepeatsAndNestedNamesAreNot() {
        func count(_ text: String) -> Int { JSONBody.topLevelNameCount(Array(text.utf8)) }
        XCTAssertEqual(count(#"{"title": "a", "title": "b"}"#), 2)
        XCTAssertEqual(count(#"{"a": {"b": 1, "c": [{"d": 2}]}, "e": "f,\"g\": 1"}"#), 2)
        XCTAssertEqual(count("{}"), 0)
        XCTAssertEqual(count(#"{"after": 1}"#), 1)
    }
}

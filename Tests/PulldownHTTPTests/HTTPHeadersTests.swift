import XCTest
@testable import PulldownHTTP

final class HTTPHeadersTests: XCTestCase {
    func testNamesAreFoundWithoutRegardToASCIICase() {
        var headers = HTTPHeaders([("Content-Type", "text/plain"), ("X-Session-Id", "a"), ("x-session-id", "b")])
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers["CONTENT-TYPE"], "text/plain")
        XCTAssertEqual(headers.values(for: "X-SESSION-ID"), ["a", "b"])
        XCTAssertNil(headers["Content-Typ"])
        XCTAssertNil(headers["Content-Typf"])
        headers.set("X-Session-ID", "c")
        XCTAssertEqual(headers.values(for: "x-session-id"), ["c"])
    }

    func testOnlyASCIILettersFoldAndLongNamesCompareWhole() {
        // '@' and '`' sit next to 'A'-'Z' and 'a'-'z'; they must not fold into letters.
        XCTAssertFalse("@".caseInsensitiveEquals("`"))
        XCTAssertFalse("Ä".caseInsensitiveEquals("ä"))
        XCTAssertTrue("Ä".caseInsensitiveEquals("Ä"))
        let long = String(repeating: "Header-Name-", count: 8)
        XCTAssertTrue(long.caseInsensitiveEquals(long.uppercased()))
        XCTAssertFalse(long.caseInsensitiveEquals(long.dropLast() + "X"))
        XCTAssertFalse("".caseInsensitiveEquals("a"))
        XCTAssertTrue("".caseInsensitiveEquals(""))
    }
}

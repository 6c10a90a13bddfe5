import InvalidInput
@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

final class JSONBodyTests: XCTestCase {
    private func body(_ text: String, contentType: String = "application/json",
                      emptyAllowed: Bool = false) throws(Problem) -> JSONBody {
        let request = HTTPRequest(method: "POST", rawTarget: "/api/items",
                                  headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))!
        return try JSONBody(request, emptyAllowed: emptyAllowed)
    }

    private func refused(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(text), text, file: file, line: line) { error in
            XCTAssertEqual((error as? Problem)?.status, 400, file: file, line: line)
        }
    }

    func testReadsIntegersStringsAndNullsOfTheTopLevelObject() throws {
        let parsed = try body(#"{"after": 42, "title": "Hi \u00e9", "author": null, "nested": {"x": [1, 2]}}"#)
        XCTAssertEqual(try parsed.integer("after", in: 0...100).get(), 42)
        XCTAssertEqual(try parsed.string("title").get(), "Hi é")
        XCTAssertEqual(try parsed.string("author", nullable: true).get(), nil)
        XCTAssertEqual(try parsed.integer("missing", in: 0...1).get(), nil)
    }

    func testNullIsAbsentOnlyWhereTheDocumentAllowsIt() throws {
        let parsed = try body(#"{"count": null, "rate": null, "on": null}"#)
        XCTAssertEqual(try parsed.integer("count", in: 1...9, nullable: true).get(), nil)
        XCTAssertEqual(try parsed.number("rate", in: 0...1, nullable: true).get(), nil)
        XCTAssertEqual(try parsed.string("on", nullable: true).get(), nil)
        XCTAssertThrowsError(try parsed.integer("count", in: 1...9).get()) { XCTAssertEqual(($0 as? InvalidParam)?.name, "count") }
        XCTAssertThrowsError(try parsed.number("rate", in: 0...1).get()) { XCTAssertEqual(($0 as? InvalidParam)?.name, "rate") }
        XCTAssertThrowsError(try parsed.string("on").get()) { XCTAssertEqual(($0 as? InvalidParam)?.name, "on") }
        XCTAssertThrowsError(try parsed.integer("count", oneOf: [1, 2]).get())
        XCTAssertThrowsError(try parsed.string("on", oneOf: ["page"]).get())
    }

    func testWrongTypesAndRangesNameTheField() throws {
        let parsed = try body(#"{"after": 1.5, "limit": 500, "title": 7, "body": true, "whole": 3.0}"#)
        XCTAssertEqual(try parsed.integer("whole", in: 0...10).get(), 3, "JSON Schema counts 3.0 as an integer")
        XCTAssertThrowsError(try parsed.integer("after", in: 0...10).get()) { XCTAssertEqual(($0 as? InvalidParam)?.name, "after") }
        XCTAssertThrowsError(try parsed.integer("limit", in: 1...100).get())
        XCTAssertThrowsError(try parsed.string("title").get())
        XCTAssertThrowsError(try parsed.string("body").get())
    }

    func testMalformedJSONIsRefused() {
        refused(#"{"title": "x",}"#)          // trailing comma
        refused(#"[1, 2,]"#)
        refused(#"{"title": "a", "title": "b"}"#)  // a name given twice
        refused(#"{"title": "a\u0000b"}"#)    // NUL inside a string
        refused(#"{"title": 'x'}"#)
        refused(#"{"a": 1} {"b": 2}"#)
        refused(String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000))
        refused(#"["not", "an", "object"]"#)
        refused("\"text\"")
    }

    func testInvalidUTF8IsRefused() {
        let request = HTTPRequest(method: "POST", rawTarget: "/api/items",
                                  headers: HTTPHeaders([("Content-Type", "application/json")]),
                                  body: Array(#"{"title": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))!
        XCTAssertThrowsError(try JSONBody(request, emptyAllowed: false))
        let utf16 = HTTPRequest(method: "POST", rawTarget: "/api/items",
                                headers: HTTPHeaders([("Content-Type", "application/json")]),
                                body: Array(#"{"title": "x"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })!
        XCTAssertThrowsError(try JSONBody(utf16, emptyAllowed: false))
    }

    func testContentTypeMustBeJSON() throws {
        XCTAssertThrowsError(try body("{}", contentType: "text/plain"))
        XCTAssertNoThrow(try body("{}", contentType: "Application/JSON; charset=utf-8"))
        XCTAssertNoThrow(try body("{}", contentType: "application/merge-patch+json"))
    }

    func testABlankBodyIsAnEmptyObjectWhereAllowed() throws {
        XCTAssertNoThrow(try body("  \n", contentType: "text/plain", emptyAllowed: true))
        XCTAssertThrowsError(try body("", emptyAllowed: false))
    }

    func testUnknownFieldsAreNamed() throws {
        var invalid = InvalidParameters()
        try body(#"{"afte": 1, "limit": 2, "zz": 3}"#).rejectUnknown(["after", "limit"], into: &invalid)
        XCTAssertEqual(invalid.all.map(\.name), ["afte", "zz"])
    }
}

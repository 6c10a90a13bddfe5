import CJansson
import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp
@testable import PulldownHTTP

/// JSON merge patches of items: RFC 7396's merge, and what an item lets a patch do.
final class ItemPatchTests: XCTestCase {
    private func json(_ text: String) -> UnsafeMutablePointer<json_t> {
        json_loads(text, Int(JSON_DECODE_ANY), nil)!
    }

    /// Every example of RFC 7396, appendix A.
    func testTheMergeIsRFC7396s() {
        let examples: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"a":"foo"}"#, "null", "null"),
            (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
        for (original, patch, expected) in examples {
            let target = json(original), change = json(patch), result = json(expected)
            let merged = ItemPatch.merge(change, into: target)
            XCTAssertEqual(json_equal(merged, result), 1, "\(original) + \(patch)")
            XCTAssertEqual(json_equal(target, json(original)), 1, "the target is left as it was")
            [target, change, result, merged].forEach { json_decref($0) }
        }
    }

    private let item = Item(id: 4, title: "Title", body: "Body", author: "Ana", createdAt: Date(timeIntervalSince1970: 0),
                            userFields: #"{"likes":3,"image":{"url":"/a.png","width":10,"height":20}}"#, version: 2)

    private func patch(_ text: String) throws -> ItemPatch {
        try ItemPatch(HTTPRequest(method: "PATCH", rawTarget: "/api/items/4",
                                  headers: HTTPHeaders([("Content-Type", "application/merge-patch+json")]), body: Array(text.utf8))!)
    }

    func testAPatchChangesTheFieldsItNamesAndKeepsTheRest() throws {
        let fields = try XCTUnwrap(try patch(#"{"title":"Reworded","likes":4,"image":{"url":"/b.png","width":30,"height":40}}"#).apply(to: item))
        XCTAssertEqual(fields.title, "Reworded")
        XCTAssertEqual(fields.body, "Body")
        XCTAssertEqual(fields.author, "Ana")
        XCTAssertEqual(fields.userFields, #"{"likes":4,"image":{"url":"/b.png","width":30,"height":40}}"#)
        let removed = try XCTUnwrap(try patch(#"{"body":null,"author":null,"image":null}"#).apply(to: item))
        XCTAssertEqual(removed.body, "", "an optional field removed is empty")
        XCTAssertNil(removed.author, "Anonymous, once checked")
        XCTAssertEqual(removed.userFields, #"{"likes":3}"#)
        XCTAssertNil(try patch("{}").apply(to: item), "nothing to change")
    }

    func testFixedAndRequiredFieldsAreRefusedByName() throws {
        XCTAssertThrowsError(try patch(#"{"id":5,"createdAt":"x","version":3,"editedAt":null,"title":null,"body":7}"#)) { error in
            let problem = error as! Problem
            XCTAssertEqual(problem.status, 400)
            XCTAssertEqual(problem.invalidParams.map(\.name), ["id", "createdAt", "version", "editedAt", "title", "body"])
        }
        XCTAssertThrowsError(try patch(#"{"image":{"url":"/x.png","width":0,"height":5},"title":"\u0007"}"#)) { error in
            XCTAssertEqual((error as! Problem).invalidParams.map(\.name), ["title", "image.width"],
                           "checked as a post's fields are before any item is read")
        }
        let large = Item(id: 5, title: "T", body: "", author: "A", createdAt: Date(timeIntervalSince1970: 0),
                         userFields: #"{"note":""# + String(repeating: "x", count: 16_000) + #""}"#)
        XCTAssertThrowsError(try patch(#"{"more":""# + String(repeating: "y", count: 1_000) + #""}"#).apply(to: large)) { error in
            XCTAssertEqual((error as! Problem).invalidParams.map(\.name), ["item"], "what only the patched item can tell")
        }
        XCTAssertThrowsError(try patch("[1]")) { XCTAssertEqual(($0 as! Problem).status, 400) }
    }
}

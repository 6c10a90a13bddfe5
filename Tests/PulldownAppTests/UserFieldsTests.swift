@testable import ItemFields
import PulldownFeed
@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

/// A post's own fields: kept as given, `avatar`, `url` and `image` held to their shape, limits
/// on size and depth, and every problem named by its path.
final class UserFieldsTests: XCTestCase {
    private func post(_ text: String) throws(Problem) -> NewItem {
        let request = HTTPRequest(method: "POST", rawTarget: "/api/items",
                                  headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(text.utf8))!
        return try API.newItem(request)
    }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            _ = try post(text)
            XCTFail("accepted \(text)", file: file, line: line)
            return []
        } catch {
            XCTAssertEqual(error.status, 400, file: file, line: line)
            return error.invalidParams.map(\.name)
        }
    }

    func testOwnFieldsAreKeptInTheirOrderAsCompactJSON() throws {
        let new = try post(#"""
            {"likes": 3, "title": "Hi", "user": {"handle": "@ana", "tags": ["a", 1.5, null, true]},
             "image": {"url": "/media/p.svg", "width": 640, "height": 480, "alt": "A hill"},
             "avatar": "https://example.com/a.png", "url": "/somewhere", "note": "é"}
            """#)
        XCTAssertEqual(new.title, "Hi")
        XCTAssertEqual(new.userFields, #"{"likes":3,"user":{"handle":"@ana","tags":["a",1.5,null,true]},"#
                       + #""image":{"url":"/media/p.svg","width":640,"height":480,"alt":"A hill"},"#
                       + #""avatar":"https://example.com/a.png","url":"/somewhere","note":"é"}"#)
        XCTAssertEqual(try post(#"{"title": "Plain", "author": "Ana"}"#).userFields, "")
    }

    func testABadImageNamesEachBadPartOfIt() {
        XCTAssertEqual(refusal(#"{"title": "t", "image": {"url": "/p.png", "width": 0, "height": 2.5}}"#),
                       ["image.width", "image.height"])
        XCTAssertEqual(refusal(#"{"title": "t", "image": {"url": "/p.png", "height": 10}}"#), ["image.width"])
        XCTAssertEqual(refusal(#"{"title": "t", "image": {"width": 1, "height": 1, "size": 3}}"#), ["image.size", "image.url"])
        XCTAssertEqual(refusal(#"{"title": "t", "image": "/p.png"}"#), ["image"])
        XCTAssertEqual(refusal(#"{"title": "t", "image": {"url": "/p", "width": 1, "height": 1, "alt": 5}}"#), ["image.alt"])
    }

    func testAvatarAndURLAreWebURLsOrPathsOnThisServer() {
        XCTAssertEqual(refusal(#"{"title": "t", "avatar": "javascript:alert(1)", "url": 5}"#), ["avatar", "url"])
        XCTAssertEqual(refusal(#"{"title": "t", "avatar": "//elsewhere.example/a.png"}"#), ["avatar"])
        XCTAssertEqual(refusal(#"{"title": "t", "url": "/has space"}"#), ["url"])
        XCTAssertNoThrow(try post(#"{"title": "t", "avatar": "HTTPS://example.com/a", "url": null}"#))
        XCTAssertNoThrow(try post(#"{"title": "t", "url": "/\u0301accent"}"#), "a mark after / is still a path")
    }

    func testFieldsTheServerSetsAreRefused() {
        XCTAssertEqual(refusal(#"{"title": "t", "id": 5, "createdAt": "2026-01-01T00:00:00Z"}"#), ["id", "createdAt"])
    }

    func testOwnFieldsAreBoundedInDepthAndSize() throws {
        let deepest = String(repeating: "[", count: UserFields.maximumDepth - 1) + String(repeating: "]", count: UserFields.maximumDepth - 1)
        XCTAssertNoThrow(try post(#"{"title": "t", "deep": \#(deepest)}"#))
        XCTAssertEqual(refusal(#"{"title": "t", "deep": [\#(deepest)]}"#), ["deep"])
        let filler = String(repeating: "x", count: UserFields.maximumBytes)
        XCTAssertEqual(refusal(#"{"title": "t", "filler": "\#(filler)"}"#), ["item"])
    }

    func testMarkupCharactersAreEscapedSoNoFieldCanCloseTheFirstPagesScriptBlock() throws {
        let new = try post(#"{"title": "t", "note": "</script><b>&"}"#)
        XCTAssertEqual(new.userFields, #"{"note":"\u003c/script\u003e\u003cb\u003e\u0026"}"#)
    }

    func testAnItemIsWrittenWithItsOwnFieldsAfterItsOwn() {
        let item = Item(id: 7, title: "T", body: "", author: "A", createdAt: Date(timeIntervalSince1970: 0),
                        userFields: #"{"likes":3}"#)
        XCTAssertEqual(String(decoding: ResponseJSON.item(item, base: "http://x"), as: UTF8.self),
                       #"{"id":7,"title":"T","body":"","author":"A","createdAt":"1970-01-01T00:00:00Z","version":1,"editedAt":null,"likes":3}"#)
    }
}

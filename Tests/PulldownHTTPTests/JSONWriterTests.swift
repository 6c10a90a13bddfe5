import Foundation
import XCTest
@testable import PulldownHTTP

final class JSONWriterTests: XCTestCase {
    private func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func testQuotesAndBackslashesAreEscaped() {
        XCTAssertEqual(quoted("say \"hi\""), #""say \"hi\"""#)
        XCTAssertEqual(quoted(#"C:\dir"#), #""C:\\dir""#)
    }

    func testCommonControlCharactersUseShortEscapes() {
        XCTAssertEqual(quoted("a\nb\rc\td"), #""a\nb\rc\td""#)
    }

    func testOtherControlCharactersUseUnicodeEscapes() {
        XCTAssertEqual(quoted("\u{0}\u{1}\u{8}\u{c}\u{1b}\u{1f}\u{7f}"), #""\u0000\u0001\u0008\u000c\u001b\u001f\u007f""#)
    }

    func testHTMLSignificantCharactersAreEscaped() {
        let text = quoted("</script><b>&amp;")
        XCTAssertFalse(text.contains("<"))
        XCTAssertFalse(text.contains(">"))
        XCTAssertFalse(text.contains("&"))
        XCTAssertEqual(text, #""\u003c/script\u003e\u003cb\u003e\u0026amp;""#)
    }

    func testNonASCIIPassesThroughAsUTF8() {
        XCTAssertEqual(quoted("café 上拉加载更多 🎉 \u{2028}"), "\"café 上拉加载更多 🎉 \u{2028}\"")
    }

    func testEveryEscapedStringDecodesBackToTheOriginal() throws {
        var original = ""
        for value in 0..<0x80 { original.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        original += "é🎉<>&\"\\"
        var writer = JSONWriter()
        writer.beginArray(); writer.string(original); writer.endArray()
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
        XCTAssertEqual(decoded, [original])
    }

    func testCommasAndNestingComeOutAsValidJSON() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a"); writer.integer(1)
        writer.key("list"); writer.beginArray()
        writer.integer(-2); writer.bool(true); writer.null()
        writer.beginObject(); writer.endObject()
        writer.beginArray(); writer.endArray()
        writer.endArray()
        writer.key("s"); writer.string("t")
        writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self),
                       #"{"a":1,"list":[-2,true,null,{},[]],"s":"t"}"#)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(writer.bytes)))
    }

    func testKeysAreEscapedToo() {
        var writer = JSONWriter()
        writer.beginObject(); writer.key("a\"<"); writer.integer(0); writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"{"a\"\u003c":0}"#)
    }
}

final class JSONWriterInsertingTests: XCTestCase {
    func testAPrefixGoesBeforeEachOffsetOfTheMembers() {
        let object = #"{"a":"/x","b":{"c":"/y"},"d":1}"#
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id"); writer.integer(1)
        writer.members(of: object, inserting: "http://h", at: [6, 20])
        writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"{"id":1,"a":"http://h/x","b":{"c":"http://h/y"},"d":1}"#)
    }

    func testWithoutOffsetsTheMembersGoOutAsTheyAre() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id"); writer.integer(1)
        writer.members(of: #"{"a":"/x"}"#, inserting: "http://h", at: [])
        writer.members(of: "", inserting: "http://h", at: [1])
        writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"{"id":1,"a":"/x"}"#)
    }
}

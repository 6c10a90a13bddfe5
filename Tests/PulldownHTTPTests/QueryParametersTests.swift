import XCTest
@testable import PulldownHTTP

final class QueryParametersTests: XCTestCase {
    private func parse(_ query: String) -> [(String, String)]? {
        QueryParameters(parsing: query)?.pairs.map { ($0.name, $0.value) }
    }

    private func assertPairs(_ query: String, _ expected: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        guard let pairs = parse(query) else {
            return XCTFail("\(query) was refused", file: file, line: line)
        }
        XCTAssertEqual(pairs.map(\.0), expected.map(\.0), query, file: file, line: line)
        XCTAssertEqual(pairs.map(\.1), expected.map(\.1), query, file: file, line: line)
    }

    func testNamesAndValuesArePercentDecoded() {
        assertPairs("q%20x=caf%C3%A9%2C%20ok", [("q x", "café, ok")])
    }

    func testPlusIsASpace() {
        assertPairs("q=hello+world+", [("q", "hello world ")])
        assertPairs("a+b=1", [("a b", "1")])
    }

    func testEncodedPlusIsAPlus() {
        assertPairs("q=1%2B1", [("q", "1+1")])
        assertPairs("q=%2b", [("q", "+")])
    }

    func testRepeatedParametersKeepEveryValueInOrder() {
        let query = QueryParameters(parsing: "a=1&b=x&a=2&a=3")!
        XCTAssertEqual(query.values(for: "a"), ["1", "2", "3"])
        XCTAssertEqual(query.first("a"), "1")
        XCTAssertEqual(query.names, ["a", "b"])
        XCTAssertEqual(query.values(for: "missing"), [])
        XCTAssertNil(query.first("missing"))
    }

    func testEmptyValueAndBareNameBothGiveTheEmptyString() {
        assertPairs("a=&b", [("a", ""), ("b", "")])
        let query = QueryParameters(parsing: "a=&b")!
        XCTAssertEqual(query.first("a"), "")
        XCTAssertEqual(query.first("b"), "")
    }

    func testOnlyTheFirstEqualsSplitsNameFromValue() {
        assertPairs("a=b=c", [("a", "b=c")])
    }

    func testEmptyPiecesAreSkipped() {
        assertPairs("&&a=1&&b=2&", [("a", "1"), ("b", "2")])
        assertPairs("", [])
        assertPairs("&", [])
    }

    func testMalformedEscapesRefuseTheWholeQuery() {
        XCTAssertNil(parse("a=%zz"))
        XCTAssertNil(parse("a=%4"))
        XCTAssertNil(parse("a=%"))
        XCTAssertNil(parse("ok=1&a=%4g"))
        XCTAssertNil(parse("%zz=1"))
    }

    func testEscapeAtTheVeryEndIsDecoded() {
        assertPairs("a=%41", [("a", "A")])
    }

    func testInvalidUTF8RefusesTheQuery() {
        XCTAssertNil(parse("a=%FF"))
        XCTAssertNil(parse("a=%C3"), "a truncated two-byte sequence")
        XCTAssertNil(parse("a=%C0%AF"), "an overlong encoding of /")
        XCTAssertNil(parse("%ED%A0%80=1"), "a UTF-16 surrogate")
    }

    func testEqualityComparesPairsInOrder() {
        XCTAssertEqual(QueryParameters(parsing: "a=1&b=2"), QueryParameters(parsing: "a=1&b=2"))
        XCTAssertNotEqual(QueryParameters(parsing: "a=1&b=2"), QueryParameters(parsing: "b=2&a=1"))
    }

    func testPercentDecodingInPathsKeepsPlusAsPlus() {
        XCTAssertEqual(PercentDecoding.decode("a+b"), "a+b")
        XCTAssertEqual(PercentDecoding.decode("a+b", plusAsSpace: true), "a b")
        XCTAssertEqual(PercentDecoding.decode("%2F"), "/")
        XCTAssertNil(PercentDecoding.decode("%2"))
    }
}

import XCTest
@testable import PulldownHTTP

final class RequestTargetTests: XCTestCase {
    private func target(_ raw: String, file: StaticString = #filePath, line: UInt = #line) -> RequestTarget? {
        switch RequestTarget.parse(raw) {
        case .success(let target): return target
        case .failure(let failure):
            XCTFail("\(raw) was refused: \(failure)", file: file, line: line)
            return nil
        }
    }

    private func failure(_ raw: String) -> RequestTarget.Failure? {
        if case .failure(let failure) = RequestTarget.parse(raw) { return failure }
        return nil
    }

    func testSplitsPathAndQuery() {
        let parsed = target("/api/items?limit=5&before=9")
        XCTAssertEqual(parsed?.rawPath, "/api/items")
        XCTAssertEqual(parsed?.path, "/api/items")
        XCTAssertEqual(parsed?.segments, ["api", "items"])
        XCTAssertEqual(parsed?.query.first("limit"), "5")
        XCTAssertEqual(parsed?.query.first("before"), "9")
    }

    func testRootHasOneEmptySegment() {
        XCTAssertEqual(target("/")?.segments, [""])
        XCTAssertEqual(target("/")?.path, "/")
    }

    func testTrailingSlashKeepsAnEmptyLastSegment() {
        XCTAssertEqual(target("/docs/")?.segments, ["docs", ""])
    }

    func testTargetsThatAreNotOriginFormAreRefused() {
        XCTAssertEqual(failure("http://example.com/../../etc/passwd"), .notOriginForm)
        XCTAssertEqual(failure("*"), .notOriginForm)
        XCTAssertEqual(failure("example.com:443"), .notOriginForm)
        XCTAssertEqual(failure(""), .notOriginForm)
        XCTAssertEqual(failure("index.html"), .notOriginForm)
    }

    func testEncodedSlashStaysInsideItsSegment() {
        let parsed = target("/a%2Fb/c")
        XCTAssertEqual(parsed?.segments, ["a/b", "c"])
        XCTAssertEqual(parsed?.rawPath, "/a%2Fb/c")
        let dotDot = target("/..%2fPackage.swift")
        XCTAssertEqual(dotDot?.segments, ["../Package.swift"])
    }

    func testPathSegmentsArePercentDecodedButPlusStaysPlus() {
        XCTAssertEqual(target("/caf%C3%A9/a+b")?.segments, ["café", "a+b"])
        XCTAssertEqual(target("/%2e%2e/x")?.segments, ["..", "x"])
    }

    func testMalformedPathEscapeIsRefused() {
        XCTAssertEqual(failure("/a%zz"), .malformedPathEncoding)
        XCTAssertEqual(failure("/a%4"), .malformedPathEncoding)
        XCTAssertEqual(failure("/%FF"), .malformedPathEncoding)
    }

    func testMalformedQueryEscapeIsRefused() {
        XCTAssertEqual(failure("/a?x=%zz"), .malformedQueryEncoding)
        XCTAssertEqual(failure("/a?x=%FF"), .malformedQueryEncoding)
    }

    func testNulByteAnywhereIsRefused() {
        XCTAssertEqual(failure("/%00"), .nulByte)
        XCTAssertEqual(failure("/index.html%00.js"), .nulByte)
        XCTAssertEqual(failure("/a?x=%00"), .nulByte)
        XCTAssertEqual(failure("/a?%00=1"), .nulByte)
    }

    func testFragmentIsDropped() {
        let parsed = target("/page#section?not=query")
        XCTAssertEqual(parsed?.path, "/page")
        XCTAssertEqual(parsed?.query.pairs.count, 0)
        let withQuery = target("/page?a=1#frag")
        XCTAssertEqual(withQuery?.path, "/page")
        XCTAssertEqual(withQuery?.query.first("a"), "1")
    }

    func testEncodedHashAndQuestionMarkStayInTheirSegment() {
        let parsed = target("/a%23b%3Fc?q=%23")
        XCTAssertEqual(parsed?.segments, ["a#b?c"])
        XCTAssertEqual(parsed?.query.first("q"), "#")
    }

    func testPathWithoutEscapesIsItsOwnDecoding() {
        let parsed = target("/café/a+b/?q=1")
        XCTAssertEqual(parsed?.segments, ["café", "a+b", ""])
        XCTAssertEqual(parsed?.path, "/café/a+b/")
        XCTAssertEqual(parsed?.rawPath, "/café/a+b/")
        XCTAssertEqual(failure("/a\u{0}b"), .nulByte)
    }

    func testDoubleSlashKeepsAnEmptySegment() {
        XCTAssertEqual(target("//etc/passwd")?.segments, ["", "etc", "passwd"])
    }
}

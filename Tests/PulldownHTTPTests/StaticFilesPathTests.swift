import XCTest
@testable import PulldownHTTP

/// `StaticFiles.relativePath` and `acceptsGzip`: the pure decisions behind serving a file.
final class StaticFilesPathTests: XCTestCase {
    private func path(_ segments: [String]) -> String? {
        StaticFiles.relativePath(for: segments)
    }

    func testPlainSegmentsJoinIntoARelativePath() {
        XCTAssertEqual(path(["style.css"]), "style.css")
        XCTAssertEqual(path(["img", "logo.svg"]), "img/logo.svg")
    }

    func testTrailingSlashAndRootServeIndexHtml() {
        XCTAssertEqual(path([""]), "index.html")
        XCTAssertEqual(path([]), "index.html")
        XCTAssertEqual(path(["docs", ""]), "docs/index.html")
    }

    func testDotDotIsRefused() {
        XCTAssertNil(path([".."]))
        XCTAssertNil(path(["..", "Package.swift"]))
        XCTAssertNil(path(["a", "..", "..", "etc", "passwd"]))
    }

    func testSingleDotIsRefused() {
        XCTAssertNil(path(["."]))
        XCTAssertNil(path([".", "index.html"]))
    }

    func testHiddenFilesAndFoldersAreRefused() {
        XCTAssertNil(path([".git", "config"]))
        XCTAssertNil(path([".env"]))
        XCTAssertNil(path(["a", ".hidden"]))
    }

    func testBackslashIsRefused() {
        XCTAssertNil(path(["..\\Package.swift"]))
        XCTAssertNil(path(["a\\b"]))
    }

    func testSlashInsideASegmentIsRefused() {
        XCTAssertNil(path(["../Package.swift"]))
        XCTAssertNil(path(["a/b"]))
        XCTAssertNil(path(["/etc/passwd"]))
    }

    func testNulIsRefused() {
        XCTAssertNil(path(["index.html\u{0}.js"]))
        XCTAssertNil(path(["\u{0}"]))
    }

    func testEmptySegmentInTheMiddleIsRefused() {
        XCTAssertNil(path(["", "etc", "passwd"]), "//etc/passwd")
        XCTAssertNil(path(["a", "", "b"]))
    }

    func testGzipIsAcceptedWhenListed() {
        XCTAssertTrue(StaticFiles.acceptsGzip("gzip"))
        XCTAssertTrue(StaticFiles.acceptsGzip("gzip, deflate, br"))
        XCTAssertTrue(StaticFiles.acceptsGzip("br;q=1.0, gzip;q=0.8, *;q=0.1"))
        XCTAssertTrue(StaticFiles.acceptsGzip("GZIP"))
        XCTAssertTrue(StaticFiles.acceptsGzip("deflate,gzip"))
    }

    func testXGzipIsAccepted() {
        XCTAssertTrue(StaticFiles.acceptsGzip("x-gzip"))
    }

    func testGzipWithQZeroIsRefused() {
        XCTAssertFalse(StaticFiles.acceptsGzip("gzip;q=0"))
        XCTAssertFalse(StaticFiles.acceptsGzip("gzip; q=0.0"))
        XCTAssertFalse(StaticFiles.acceptsGzip("gzip;q=0.000, deflate"))
    }

    func testAbsentOrOtherEncodingsDoNotGetGzip() {
        XCTAssertFalse(StaticFiles.acceptsGzip(nil))
        XCTAssertFalse(StaticFiles.acceptsGzip(""))
        XCTAssertFalse(StaticFiles.acceptsGzip("identity"))
        XCTAssertFalse(StaticFiles.acceptsGzip("deflate, br"))
        XCTAssertFalse(StaticFiles.acceptsGzip("gzipx"))
    }
}

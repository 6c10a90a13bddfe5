import XCTest
@testable import PulldownHTTP

final class SecurityHeadersTests: XCTestCase {
    private func styleSources(_ html: String) -> [String] {
        let policy = SecurityHeaders.contentSecurityPolicy(for: Array(html.utf8))
        let directive = policy.split(separator: ";").map { $0.split(separator: " ") }.first { $0.first == "style-src" }
        return directive.map { $0.dropFirst().map(String.init) } ?? []
    }

    func testADocumentWithoutStylesGetsTheSameOriginPolicy() {
        XCTAssertEqual(SecurityHeaders.contentSecurityPolicy(for: Array("<p>hi</p>".utf8)), SecurityHeaders.contentSecurityPolicy)
        XCTAssertEqual(styleSources("<p>hi</p>"), ["'self'"])
    }

    func testEachInlineStylesheetIsAllowedByTheHashOfItsExactText() {
        // The digests as `openssl dgst -sha256 -binary | base64` gives them.
        XCTAssertEqual(styleSources("<head><style>body{color:red}</style></head><style media=\"print\">\n.a { b: c }\n</style>"),
                       ["'self'", "'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='", "'sha256-inxVQ14qRowpoFDxicSZd/VCviZlN6XewkVakBRs4aM='"])
    }

    func testOnlyStyleElementsCountAndScriptsStaySameOrigin() {
        let html = "<styles>x</styles><stylex>y</stylex><script>alert(1)</script>"
        XCTAssertEqual(styleSources(html), ["'self'"])
        XCTAssertTrue(SecurityHeaders.contentSecurityPolicy(for: Array("<style>a{}</style>".utf8)).contains("script-src 'self';"))
    }

    func testAnUnclosedStyleElementAllowsNothingMore() {
        XCTAssertEqual(styleSources("<style>body{}"), ["'self'"])
    }

    func testAPreparedDocumentCarriesItsPolicyAndOtherTypesNone() {
        let page = PreparedBody(Array("<style>body{color:red}</style>".utf8), contentType: "text/html; charset=utf-8")
        XCTAssertTrue(page.plain.full.headers["Content-Security-Policy"]?.contains("'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='") == true)
        let script = PreparedBody(Array("let a = '<style>x</style>'".utf8), contentType: "text/javascript")
        XCTAssertNil(script.plain.full.headers["Content-Security-Policy"])
    }

    private func imageSources(_ policy: String) -> [String] {
        let directive = policy.split(separator: ";").map { $0.split(separator: " ") }.first { $0.first == "img-src" }
        return directive.map { $0.dropFirst().map(String.init) } ?? []
    }

    func testPicturesComeFromTheSameOriginAndTheSourcesNamedOnly() {
        XCTAssertEqual(imageSources(SecurityHeaders.contentSecurityPolicy), ["'self'"])
        XCTAssertEqual(imageSources(SecurityHeaders.contentSecurityPolicy(for: [], imageSources: ["https://cdn.example", "http://127.0.0.1:9000"])),
                       ["'self'", "https://cdn.example", "http://127.0.0.1:9000"])
    }
}

import Foundation
import PulldownFeed
@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

/// An item's pictures go out absolute; nothing else of its own fields changes.
final class PictureLinksTests: XCTestCase {
    private let base = "http://192.168.1.20:8080"

    private func written(_ fields: String) -> String {
        let item = Item(id: 7, title: "T", body: "", author: "A", createdAt: Date(timeIntervalSince1970: 0), userFields: fields)
        let json = String(decoding: ResponseJSON.item(item, base: base), as: UTF8.self)
        return String(json.dropFirst(#"{"id":7,"title":"T","body":"","author":"A","createdAt":"1970-01-01T00:00:00Z","version":1,"editedAt":null"#.count))
    }

    func testTheAvatarAndTheImagesURLAreWrittenAfterTheBase() {
        XCTAssertEqual(written(#"{"avatar":"/media/demo/avatar-1.png","image":{"url":"/media/data/ab/p.png","width":2,"height":1}}"#),
                       #","avatar":"http://192.168.1.20:8080/media/demo/avatar-1.png","#
                       + #""image":{"url":"http://192.168.1.20:8080/media/data/ab/p.png","width":2,"height":1}}"#)
        XCTAssertEqual(written(#"{"image":{"width":2,"alt":"x","url":"/p.png","height":1},"avatar":"/a.png"}"#),
                       #","image":{"width":2,"alt":"x","url":"http://192.168.1.20:8080/p.png","height":1},"avatar":"http://192.168.1.20:8080/a.png"}"#)
    }

    func testURLsOfOtherServersAndEveryOtherFieldAreWrittenAsTheyAre() {
        for fields in [#"{"avatar":"https://cdn.example/a.png","image":{"url":"http://x.example/p.png","width":2,"height":1}}"#,
                       #"{"url":"/posts/1","note":"/not/a/picture","user":{"avatar":"/nested.png"},"tags":["/a",{"url":"/b"}]}"#,
                       #"{"avatar":null,"image":null,"likes":3}"#,
                       #"{"note":"\"avatar\":\"/x\"","avatars":"/y","url":"/z"}"#,
                       #"{"avatar":"//evil.example/a.png"}"#] {
            XCTAssertEqual(written(fields), "," + fields.dropFirst(), fields)
        }
    }

    func testEscapesInsideStringsDoNotLoseTheScan() {
        XCTAssertEqual(written(#"{"note":"a \" } ] \\","avatar":"/a.png"}"#),
                       #","note":"a \" } ] \\","avatar":"http://192.168.1.20:8080/a.png"}"#)
    }

    func testAPathBecomesAbsoluteAndAURLStays() {
        XCTAssertEqual(PictureLinks.absolute("/p.png", base: base), "http://192.168.1.20:8080/p.png")
        XCTAssertEqual(PictureLinks.absolute("https://cdn.example/p.png", base: base), "https://cdn.example/p.png")
        XCTAssertEqual(PictureLinks.absolute("//cdn.example/p.png", base: base), "//cdn.example/p.png")
    }
}

/// Where the URLs the server writes begin.
final class BaseURLTests: XCTestCase {
    private func request(host: String?, tls: Bool = false) -> HTTPRequest {
        HTTPRequest(method: "GET", rawTarget: "/", headers: HTTPHeaders(host.map { [("Host", $0)] } ?? []), isTLS: tls)!
    }

    func testTheRequestsSchemeAndHostElseThePublicURL() throws {
        XCTAssertEqual(BaseURL().of(request(host: "127.0.0.1:8080")), "http://127.0.0.1:8080")
        XCTAssertEqual(BaseURL().of(request(host: "PC.local:8443", tls: true)), "https://pc.local:8443")
        XCTAssertEqual(BaseURL().of(request(host: "[::1]:80")), "http://[::1]:80")
        XCTAssertNil(BaseURL().of(request(host: nil)), "HTTP/1.0 without Host")
        XCTAssertThrowsError(try BaseURL().require(request(host: nil))) { XCTAssertEqual(($0 as? Problem)?.status, 400) }
        let proxied = BaseURL(configured: "https://feed.example")
        XCTAssertEqual(proxied.of(request(host: "10.0.0.5:8080")), "https://feed.example")
        XCTAssertEqual(proxied.of(request(host: nil)), "https://feed.example")
        XCTAssertTrue(proxied.isOwn("https://feed.example", for: request(host: "10.0.0.5:8080")))
        XCTAssertTrue(proxied.isOwn("http://10.0.0.5:8080", for: request(host: "10.0.0.5:8080")))
        XCTAssertFalse(proxied.isOwn("http://localhost:5173", for: request(host: "10.0.0.5:8080")))
    }

    func testThePublicURLIsAnOriginWithoutAPath() {
        XCTAssertEqual(BaseURL.publicOrigin("https://Feed.Example/"), "https://feed.example")
        XCTAssertEqual(BaseURL.publicOrigin("http://192.168.1.20:8080"), "http://192.168.1.20:8080")
        XCTAssertEqual(BaseURL.publicOrigin("HTTPS://[fd00::7]:8443"), "https://[fd00::7]:8443")
        for bad in ["feed.example", "ftp://feed.example", "https://feed.example/app", "https://feed.example?x", "https://",
                    "https://a b", "https://user@feed.example", "https://feed.example:99999"] {
            XCTAssertNil(BaseURL.publicOrigin(bad), bad)
        }
        XCTAssertEqual(BaseURL.host(ofPublicOrigin: "https://feed.example:8443"), "feed.example")
        XCTAssertEqual(BaseURL.host(ofPublicOrigin: "https://[fd00::7]"), "fd00::7")
    }

    func testTheCertificateCoversThePublicURLsHost() {
        XCTAssertEqual(TLSSetup.names(host: "127.0.0.1", interfaceAddresses: [], publicURL: "https://feed.example"),
                       ["localhost", "127.0.0.1", "::1", "feed.example"])
        XCTAssertEqual(TLSSetup.names(host: "0.0.0.0", interfaceAddresses: ["192.168.1.20"], publicURL: "https://192.168.1.20:8443"),
                       ["localhost", "127.0.0.1", "::1", "192.168.1.20"])
    }
}

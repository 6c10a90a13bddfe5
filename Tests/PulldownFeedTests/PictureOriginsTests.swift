import XCTest
@testable import PulldownFeed

/// The origin of a picture, as a content policy names it; only an item's pictures count.
final class PictureOriginsTests: XCTestCase {
    func testAnOriginIsSchemeHostAndAPortOtherThanTheSchemesOwn() {
        for (url, origin) in [("https://cdn.example/a.png", "https://cdn.example"), ("HTTP://CDN.Example:80/a", "http://cdn.example"),
                              ("https://cdn.example:443?x", "https://cdn.example"), ("http://127.0.0.1:9000/p.png", "http://127.0.0.1:9000"),
                              ("https://user:pw@img.example:8443/p#f", "https://img.example:8443"),
                              ("http://a-b.example\\evil", "http://a-b.example")] {
            XCTAssertEqual(PictureOrigins.origin(of: url), origin, url)
        }
    }

    func testWhatAPolicyCannotNameGivesNone() {
        for url in ["/media/a.png", "//cdn.example/a.png", "ftp://cdn.example/a", "data:image/png;base64,x", "https://",
                    "https://[::1]:8080/a", "https://under_score.example/a", "https://a..b/a", "https://.a/x", "https://a:99999/",
                    "https://a:/x", "https://é.example/a", "javascript:alert(1)"] {
            XCTAssertNil(PictureOrigins.origin(of: url), url)
        }
    }

    func testOnlyTheAvatarAndTheImageCount() {
        XCTAssertEqual(PictureOrigins.of(userFields: #"{"avatar":"https://a.example/x","image":{"url":"https://b.example/y","width":1,"height":1},"#
                                         + #""url":"https://c.example/","user":{"avatar":"https://d.example/"}}"#),
                       ["https://a.example", "https://b.example"])
        XCTAssertEqual(PictureOrigins.of(userFields: #"{"avatar":"/media/demo/avatar-1.png"}"#), [])
        XCTAssertEqual(PictureOrigins.of(userFields: ""), [])
        XCTAssertEqual(PictureOrigins.of(userFields: #"{"avatar":null,"image":null}"#), [])
    }
}

import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

/// The newest page as the markup `/` carries: the script's own articles, escaped text, and a data
/// block with the rest of the page's JSON.
final class FeedMarkupTests: XCTestCase {
    /// 2026-11-28T07:41:09Z, a Saturday.
    private let saturday = Date(timeIntervalSince1970: 1_795_851_669)

    private func item(_ id: Int64, title: String = "T", body: String = "B", author: String = "A", at date: Date? = nil,
                      userFields: String = "") -> Item {
        Item(id: id, title: title, body: body, author: author, createdAt: date ?? saturday, userFields: userFields)
    }

    private let feed = FeedID("00112233445566ff")!

    private func markup(_ items: [Item], hasMore: Bool = true) -> String {
        String(decoding: FeedMarkup.newestPage(ItemPage(items: items, direction: .older, hasMore: hasMore), limit: 10, feed: feed,
                                                 sequence: 7, base: "http://pc.local:8080"), as: UTF8.self)
    }

    /// The JSON between the data block's tags, parsed.
    private func data(_ markup: String) throws -> [String: Any] {
        let start = try XCTUnwrap(markup.range(of: #"<script type="application/json" id="first-page">"#))
        let end = try XCTUnwrap(markup.range(of: "</script>", range: start.upperBound..<markup.endIndex))
        let json = Data(markup[start.upperBound..<end.lowerBound].utf8)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    func testAnArticleIsTheMarkupTheScriptBuilds() {
        let expected = #"<div class="day-head" aria-hidden="true">Sat, Nov 28, 2026</div>"#
            + #"<article tabindex="0" data-id="7" aria-labelledby="item-7-t" aria-describedby="item-7-b" aria-posinset="1" aria-setsize="-1">"#
            + #"<h2 id="item-7-t">Title</h2><p id="item-7-b">Body</p><footer>Ada · <a href="/item.html?id=7" draggable="false">"#
            + #"<time datetime="2026-11-28T07:41:09Z">07:41 UTC</time></a></footer></article>"#
            + #"<script type="application/json" id="first-page">"#
        XCTAssertTrue(markup([item(7, title: "Title", body: "Body", author: "Ada")]).hasPrefix(expected))
    }

    func testAnEditedArticleSaysSoAfterItsTimeAsTheScriptWritesIt() {
        let edited = Item(id: 9, title: "T", body: "B", author: "A", createdAt: saturday, version: 3,
                          editedAt: saturday.addingTimeInterval(60))
        XCTAssertTrue(markup([edited]).contains(#"07:41 UTC</time></a> · <span class="edited" data-at="2026-11-28T07:42:09Z">edited</span></footer>"#),
                      markup([edited]))
        XCTAssertFalse(markup([item(8)]).contains("edited"))
    }

    func testTextIsEscapedInElementsAndAttributes() {
        let html = markup([item(1, title: #"<img src=x onerror=alert(1)> & "q" 'a'"#, body: "</p><script>alert(2)</script>",
                               author: "<b>me</b>")])
        XCTAssertTrue(html.contains(#"<h2 id="item-1-t">&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;</h2>"#))
        XCTAssertTrue(html.contains(#"<p id="item-1-b">&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p>"#))
        XCTAssertTrue(html.contains("<footer>&lt;b&gt;me&lt;/b&gt; · "))
        XCTAssertFalse(html.contains("<img"))
        XCTAssertFalse(html.contains("<b>"))
    }

    func testNoItemTextCanEndOrOpenAnElementAndTheDataBlockCarriesNoItemText() throws {
        let evil = "</script><script>alert(1)</script><!-- </SCRIPT "
        let html = markup([item(3, title: evil, body: evil, author: evil)], hasMore: false)
        XCTAssertEqual(html.components(separatedBy: "</script>").count, 2, "one </script>: the block's own end")
        XCTAssertFalse(html.lowercased().dropLast("</script>".count).contains("</script"))
        XCTAssertFalse(html.contains("<!--"))
        let page = try data(html)
        XCTAssertEqual(Set(page.keys), ["limit", "hasMore", "next", "feed", "changes"], "the articles carry the items, once")
        XCTAssertEqual(page["feed"] as? String, "00112233445566ff")
        XCTAssertEqual(page["hasMore"] as? Bool, false)
        XCTAssertEqual(page["limit"] as? Int, 10)
    }

    func testTheDataBlockIsThePageTheAPIAnswersLessItsItems() throws {
        let page = ItemPage(items: [item(2), item(1)], direction: .older, hasMore: true)
        let html = String(decoding: FeedMarkup.newestPage(page, limit: 10, feed: feed, sequence: 7, base: ""), as: UTF8.self)
        var answered = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ResponseJSON.page(page, limit: 10, feed: feed, sequence: 7,
                                                                                                base: ""))) as? [String: Any])
        XCTAssertNotNil(answered.removeValue(forKey: "items"))
        XCTAssertEqual(try data(html) as NSDictionary, answered as NSDictionary)
        XCTAssertTrue(html.hasSuffix(#"<script type="application/json" id="first-page">{"limit":10,"hasMore":true,"next":1,"feed":"00112233445566ff","changes":7}</script>"#))
    }

    func testEachUTCDayOpensWithAHeaderAndTheLastPageCountsTheFeed() {
        let html = markup([item(3, at: saturday.addingTimeInterval(86_400)), item(2, at: saturday.addingTimeInterval(3600)),
                           item(1, at: saturday)], hasMore: false)
        XCTAssertEqual(html.components(separatedBy: #"class="day-head""#).count, 3)
        XCTAssertTrue(html.contains("Sun, Nov 29, 2026</div><article"))
        XCTAssertTrue(html.contains(#"aria-posinset="3" aria-setsize="3""#), "the whole feed is here: its size is known")
    }

    /// A path here goes out absolute, as the API writes it, so the script's articles and these match.
    func testPicturesAreTheMarkupTheScriptBuilds() {
        let fields = #"{"avatar":"/media/demo/avatar-2.png","image":{"url":"/p.svg","width":1200,"height":800,"alt":"A pier"}}"#
        let html = markup([item(7, title: "Title", userFields: fields)])
        let avatar = #"<img class="avatar" loading="lazy" decoding="async" width="40" height="40" alt="" "#
            + #"src="http://pc.local:8080/media/demo/avatar-2.png">"#
        let picture = #"<img class="pic" loading="lazy" decoding="async" width="1200" height="800" alt="A pier" "#
            + #"src="http://pc.local:8080/p.svg">"#
        XCTAssertTrue(html.contains(#"aria-setsize="-1">"# + avatar + #"<h2 id="item-7-t">Title</h2>"#), html)
        XCTAssertTrue(html.contains(#"<p id="item-7-b">B</p>"# + picture + "<footer>"), html)
    }

    func testPictureAttributesAreEscaped() {
        // As the store keeps them: `<`, `>` and `&` in JSON escapes (UserFields.htmlSafe).
        let fields = #"{"image":{"url":"https://example.com/p.jpg?a=1\u0026b=\"2\"","width":3,"height":2,"#
            + #""alt":"\"q\" \u003cb\u003e 'a'"}}"#
        let html = markup([item(1, userFields: fields)])
        XCTAssertTrue(html.contains(#"alt="&quot;q&quot; &lt;b&gt; &#39;a&#39;" src="https://example.com/p.jpg?a=1&amp;b=&quot;2&quot;">"#), html)
        XCTAssertFalse(html.contains("<b>"))
    }

    func testALinkThatIsNeitherHTTPNorAPathHereIsNotDrawn() {
        for link in ["javascript:alert(1)", "data:image/svg+xml,x", "//evil.example/p.svg", ""] {
            let fields = #"{"avatar":"\#(link)","image":{"url":"\#(link)","width":3,"height":2}}"#
            XCTAssertFalse(markup([item(1, userFields: fields)]).contains("<img"), link)
        }
        XCTAssertFalse(markup([item(1, userFields: #"{"image":{"url":"/p.svg","width":0,"height":2}}"#)]).contains("<img"))
    }

    func testAnEmptyFeedIsOnlyItsData() throws {
        let html = markup([], hasMore: false)
        XCTAssertTrue(html.hasPrefix("<script"))
        XCTAssertEqual(try data(html)["hasMore"] as? Bool, false, "the block says the server wrote the page, empty")
    }
}

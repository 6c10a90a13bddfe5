import Foundation
@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp
import PulldownTesting
@testable import PulldownFeed

/// `/`: index.html with the newest page in it, kept until the feed or the template changes, and
/// the page served without the feed when the store does not answer.
final class HomePageTests: XCTestCase {
    private var folder: URL!
    private let template = "<!doctype html><title>Pulldown</title><div id=feed><!--newest-page--></div>"
        + String(repeating: "<p>row</p>", count: 30)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulldown-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(template)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ text: String) throws {
        try text.write(to: folder.appendingPathComponent("index.html"), atomically: false, encoding: .utf8)
    }

    private func home(_ feed: Feed) throws -> (HomePage, StaticFiles) {
        let files = try StaticFiles(root: folder.path)
        return (HomePage(feed: feed, files: files, pageSize: 2), files)
    }

    /// The answer, which comes before `respond` returns: no check of a shared store is in flight.
    private func get(_ home: HomePage, headers: [(String, String)] = []) throws -> HTTPResponse {
        let sent = Mutex<HTTPResponse?>(nil)
        home.respond(to: HTTPRequest(method: "GET", rawTarget: "/", headers: HTTPHeaders([("Host", "pc.local")] + headers))!,
                     Responder { response in sent.withLock { $0 = response } })
        return try XCTUnwrap(sent.withLock { $0 })
    }

    private func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    private func feed(items: Int) throws -> Feed {
        let feed = Feed(store: try SQLiteStore(path: ":memory:"))
        for i in 0..<items {
            _ = try feed.addItem(NewItem(title: "item \(i + 1)", body: "text", author: "me"))
        }
        return feed
    }

    func testTheNewestPageIsWrittenAtTheMarker() throws {
        let feed = try feed(items: 3)
        let (home, _) = try home(feed)
        let response = try get(home)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "text/html; charset=utf-8")
        XCTAssertEqual(response.headers["Cache-Control"], "no-cache")
        let html = text(response)
        XCTAssertFalse(html.contains("<!--newest-page-->"))
        XCTAssertTrue(html.contains(#"<div id=feed><div class="day-head""#))
        XCTAssertTrue(html.contains(">item 3</h2>") && html.contains(">item 2</h2>"))
        XCTAssertFalse(html.contains(">item 1</h2>"), "one page of --page-size items")
        XCTAssertTrue(html.contains(#""limit":2,"hasMore":true,"next":2,"feed":"\#(try feed.feedID())","changes":3}</script></div>"#),
                      "the feed its cursors belong to, and the sequence it reflects")
        XCTAssertTrue(html.hasSuffix(String(repeating: "<p>row</p>", count: 30)))
    }

    func testThePolicyAllowsTheTemplatesStylesheetAndNothingAnItemBrings() throws {
        let styled = "<!doctype html><style>body{margin:0}</style><div id=feed><!--newest-page--></div>"
        try write(styled)
        let feed = Feed(store: try SQLiteStore(path: ":memory:"))
        _ = try feed.addItem(NewItem(title: "</div><style>body{display:none}</style>", body: "text", author: "me"))
        let response = try get(try home(feed).0)
        XCTAssertTrue(text(response).contains("body{display:none}"), "the item is on the page, escaped")
        XCTAssertEqual(response.headers["Content-Security-Policy"], SecurityHeaders.contentSecurityPolicy(for: Array(styled.utf8)))
        XCTAssertEqual(response.headers["Content-Security-Policy"]?.components(separatedBy: "'sha256-").count, 2)
    }

    func testThePageIsKeptUntilAnInsertThenBuiltAgain() throws {
        let feed = try feed(items: 3)
        let (home, _) = try home(feed)
        let first = try get(home)
        let again = try get(home)
        XCTAssertNotNil(first.prepared)
        XCTAssertTrue(again.prepared === first.prepared, "the same ready answer, not a new one")
        _ = try feed.addItem(NewItem(title: "fresh", body: "", author: nil))
        let after = try get(home)
        XCTAssertNotEqual(after.headers["ETag"], first.headers["ETag"])
        XCTAssertTrue(text(after).contains(">fresh</h2>"))
        XCTAssertTrue(try get(home).prepared === after.prepared)
    }

    func testGzipAndETagsAsForAnyFile() throws {
        let (home, _) = try home(try feed(items: 3))
        let plain = try get(home)
        let gzip = try get(home, headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(gzip.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(gzip.headers["Vary"], "Accept-Encoding")
        XCTAssertLessThan(gzip.body.count, plain.body.count)
        let etag = try XCTUnwrap(gzip.headers["ETag"])
        XCTAssertNotEqual(etag, plain.headers["ETag"])
        XCTAssertEqual(try get(home, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", etag)]).status, 304)
        XCTAssertEqual(try get(home, headers: [("If-None-Match", try XCTUnwrap(plain.headers["ETag"]))]).status, 304)
    }

    func testAnEditedTemplateIsUsedOnTheNextRequest() throws {
        let (home, files) = try home(try feed(items: 1))
        XCTAssertTrue(text(try get(home)).contains(">item 1</h2>"))
        try write("<!doctype html><title>Edited</title><main><!--newest-page--></main>")
        files.reloadIfChanged()
        let html = text(try get(home))
        XCTAssertTrue(html.hasPrefix("<!doctype html><title>Edited</title><main><div class=\"day-head\""))
        XCTAssertTrue(html.contains(">item 1</h2>"))
    }

    func testAnEmptyFeedIsAnEmptyFeedWithItsData() throws {
        let feed = try feed(items: 0)
        let (home, _) = try home(feed)
        let html = text(try get(home))
        XCTAssertTrue(html.contains(#"<div id=feed><script type="application/json" id="first-page">{"limit":2,"hasMore":false,"#
                                    + #""next":null,"feed":"\#(try feed.feedID())","changes":0}</script></div>"#))
        XCTAssertFalse(html.contains("<article"))
    }

    func testAStoreThatDoesNotAnswerStillGetsThePageWithoutTheFeed() throws {
        // Not shared: the page's read fails. Shared: the check of its newest id fails first.
        for store: any FeedStore in [UnreachableStore(), UnreachableSharedStore()] {
            let (home, _) = try home(Feed(store: store))
            let response = try get(home)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(text(response), template.replacingOccurrences(of: "<!--newest-page-->", with: ""),
                           "no articles and no data: the script asks for the page itself")
        }
    }

    func testATemplateWithoutTheMarkerIsServedAsItIs() throws {
        try write("<!doctype html><article>One article</article>")
        let (home, _) = try home(try feed(items: 2))
        XCTAssertEqual(text(try get(home)), "<!doctype html><article>One article</article>")
    }

    func testNoIndexFileIsA404() throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent("index.html"))
        let (home, _) = try home(try feed(items: 1))
        XCTAssertEqual(try get(home).status, 404)
    }

    private func imageSources(_ response: HTTPResponse) -> [String] {
        let policy = response.headers["Content-Security-Policy"] ?? ""
        let directive = policy.split(separator: ";").map { $0.split(separator: " ") }.first { $0.first == "img-src" }
        return directive.map { $0.dropFirst().map(String.init) } ?? []
    }

    private func getItemPage(_ home: HomePage) throws -> HTTPResponse {
        let sent = Mutex<HTTPResponse?>(nil)
        home.respondWithItemPage(to: HTTPRequest(method: "GET", rawTarget: "/item.html?id=1", headers: HTTPHeaders([("Host", "pc.local")]))!,
                                 Responder { response in sent.withLock { $0 = response } })
        return try XCTUnwrap(sent.withLock { $0 })
    }

    /// The policy allows exactly the picture origins the feed holds, on `/` and on an item's page,
    /// updated as items arrive.
    func testThePolicyAllowsThePicturesOfTheFeedAndNoOthers() throws {
        try "<!doctype html><title>Item</title>".write(to: folder.appendingPathComponent("item.html"), atomically: false, encoding: .utf8)
        let feed = try feed(items: 1)
        let (home, _) = try home(feed)
        XCTAssertEqual(imageSources(try get(home)), ["'self'"])
        XCTAssertEqual(imageSources(try getItemPage(home)), ["'self'"])
        _ = try feed.addItem(NewItem(title: "pictured", body: "", userFields: #"{"avatar":"https://cdn.example/a.png"}"#))
        XCTAssertEqual(imageSources(try get(home)), ["'self'", "https://cdn.example"])
        let item = try getItemPage(home)
        XCTAssertEqual(imageSources(item), ["'self'", "https://cdn.example"])
        XCTAssertEqual(text(item), "<!doctype html><title>Item</title>")
        XCTAssertEqual(item.headers["Cache-Control"], "no-cache")
    }

    func testThePublicURLsOriginIsAllowedAndTooManyOriginsAllowAnyWebPicture() throws {
        let feed = try feed(items: 0)
        let files = try StaticFiles(root: folder.path)
        let home = HomePage(feed: feed, files: files, pageSize: 2, baseURL: BaseURL(configured: "https://feed.example"))
        XCTAssertEqual(imageSources(try get(home)), ["'self'", "https://feed.example"])
        let many = (0...HomePage.maximumPictureOrigins).map { "https://host-\($0).example" }
        XCTAssertEqual(home.imageSources(many), ["https:", "http:"])
    }

    /// Each base URL its own page, the pictures under it.
    func testThePicturesAreWrittenUnderTheHostTheRequestNamed() throws {
        let feed = try feed(items: 0)
        _ = try feed.addItem(NewItem(title: "pictured", body: "", userFields: #"{"avatar":"/media/demo/avatar-1.png"}"#))
        let (home, _) = try home(feed)
        XCTAssertTrue(text(try get(home)).contains(#"src="http://pc.local/media/demo/avatar-1.png""#))
        let sent = Mutex<HTTPResponse?>(nil)
        home.respond(to: HTTPRequest(method: "GET", rawTarget: "/", headers: HTTPHeaders([("Host", "192.168.1.20:8080")]), isTLS: true)!,
                     Responder { response in sent.withLock { $0 = response } })
        XCTAssertTrue(text(try XCTUnwrap(sent.withLock { $0 })).contains(#"src="https://192.168.1.20:8080/media/demo/avatar-1.png""#))
    }
}

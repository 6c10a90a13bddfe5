import Foundation
@testable import PulldownHTTP
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// After a reset, nothing kept in memory answers for the old feed: the newest pages, the pages
/// whose places never change, and `/` all show the new one.
final class ResetCachingTests: XCTestCase {
    private var feed: Feed!
    private var api: API!

    override func setUpWithError() throws {
        feed = Feed(store: try SQLiteStore(path: ":memory:"))
        XCTAssertEqual(try feed.seedIfEmpty(count: 30), 30)
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        api = API(feed: feed, sessions: SessionResolver(tokens: tokens), pageSize: 10,
                  pages: ValidatedPageCache(bytes: 1 << 20))
    }

    /// The ids `target` lists (nil: not a page), the feed it names, its status and `Cache-Control`.
    private func page(_ target: String) throws -> (ids: [Int64]?, feed: String?, status: Int, cacheControl: String?) {
        let sent = Mutex<HTTPResponse?>(nil)
        api.items(HTTPRequest(method: "GET", rawTarget: target, headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { response in sent.withLock { $0 = response } })
        let response = try XCTUnwrap(sent.withLock { $0 }, "answered at once on SQLite")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let ids = (json["items"] as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        return (ids, json["feed"] as? String, response.status, response.headers["Cache-Control"])
    }

    func testPagesKeptInMemoryAreOfTheFeedAsItIsNow() throws {
        let newest = try page("/api/items?limit=3")
        XCTAssertEqual(newest.ids, [30, 29, 28])
        let old = try XCTUnwrap(newest.feed)
        let deep = try page("/api/items?limit=3&before=11&feed=\(old)")
        XCTAssertEqual(deep.ids, [10, 9, 8])
        XCTAssertEqual(deep.cacheControl, CacheControl.noCache, "kept ready in memory from now on, and revalidated")
        XCTAssertEqual(try page("/api/items?limit=3&before=11&feed=\(old)").ids, [10, 9, 8])

        XCTAssertEqual(try feed.resetToDemo(count: 15), 45)
        let renewed = try page("/api/items?limit=3")
        XCTAssertEqual(renewed.ids, [45, 44, 43])
        let new = try XCTUnwrap(renewed.feed)
        XCTAssertNotEqual(new, old)
        XCTAssertEqual(try page("/api/items?limit=3&before=11&feed=\(old)").status, 410, "the page kept is the old feed's")
        XCTAssertEqual(try page("/api/items?limit=3&before=11&feed=\(new)").ids, [], "no id of the new feed is below 11")
        XCTAssertEqual(try page("/api/items?limit=3&before=11").ids, [])
        XCTAssertEqual(try page("/api/items?limit=3&before=34&feed=\(new)").ids, [33, 32, 31])
    }

    func testTheHomePageShowsTheNewFeed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulldown-reset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<div id=feed><!--newest-page--></div>".write(to: folder.appendingPathComponent("index.html"),
                                                         atomically: false, encoding: .utf8)
        let home = HomePage(feed: feed, files: try StaticFiles(root: folder.path), pageSize: 1)
        func body() -> String {
            let sent = Mutex<HTTPResponse?>(nil)
            home.respond(to: HTTPRequest(method: "GET", rawTarget: "/", headers: HTTPHeaders([("Host", "pc.local")]))!, Responder { response in sent.withLock { $0 = response } })
            return String(decoding: sent.withLock { $0 }?.body ?? [], as: UTF8.self)
        }
        XCTAssertTrue(body().contains(#"data-id="30""#), body())
        try feed.resetToDemo(count: 2)
        XCTAssertTrue(body().contains(#"data-id="32""#), body())
    }
}

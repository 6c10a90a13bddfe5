import Foundation
@testable import PulldownHTTP
import PulldownTesting
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// Pages and items kept in memory stay exactly until an edit or a deletion touches them.
final class ChangeCachingTests: XCTestCase {
    private var feed: Feed!
    private var handler: HTTPHandler!
    private var feedID = ""

    override func setUpWithError() throws {
        var configuration = FeedConfiguration()
        configuration.newItemsEvery = 0
        feed = Feed(store: try SQLiteStore(path: ":memory:"), configuration: configuration)
        XCTAssertEqual(try feed.seedIfEmpty(count: 30), 30)
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        let api = API(feed: feed, sessions: SessionResolver(tokens: tokens), pageSize: 10, pages: ValidatedPageCache(bytes: 1 << 20))
        feed.observeChanges { notice in api.pages.drop(notice.ids) }
        var router = Router()
        api.addRoutes(to: &router, openAPI: .json([]), writeAccess: DemoAccess(host: "127.0.0.1", configured: nil))
        handler = router.handler
        feedID = try feed.feedID().text
    }

    /// A GET through the API's routes.
    private func send(_ target: String, headers: HTTPHeaders = HTTPHeaders()) throws -> HTTPResponse {
        let sent = Mutex<HTTPResponse?>(nil)
        var headers = headers
        headers.add("Host", "pc.local")   // the answers' links are written under it
        handler(HTTPRequest(method: "GET", rawTarget: target, headers: headers)!, Responder { response in sent.withLock { $0 = response } })
        return try XCTUnwrap(sent.withLock { $0 }, "answered at once on SQLite")
    }

    /// The page's ids, versions and `changes`.
    private func page(_ target: String) throws -> (ids: [Int64], versions: [Int64], changes: Int64, etag: String?) {
        let response = try send(target)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.status)")
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        return (items.map { ($0["id"] as! NSNumber).int64Value }, items.map { ($0["version"] as! NSNumber).int64Value },
                (json["changes"] as! NSNumber).int64Value, response.headers["ETag"])
    }

    func testAKeptPageIsServedAsBuiltUntilAChangeTouchesOneOfItsPlaces() throws {
        let deep = "/api/items?limit=3&before=11&feed=\(feedID)", other = "/api/items?limit=3&before=21&feed=\(feedID)"
        let first = try page(deep)
        XCTAssertEqual(first.ids, [10, 9, 8])
        XCTAssertEqual(first.changes, 30)
        let untouched = try page(other)

        try feed.edit(9, to: NewItem(title: "Edited", body: ""))
        try feed.delete(15)
        let edited = try page(deep)
        XCTAssertEqual(edited.versions, [1, 2, 1], "the edit shows at once")
        XCTAssertEqual(edited.changes, 32)
        XCTAssertNotEqual(edited.etag, first.etag)
        let kept = try page(other)
        XCTAssertEqual(kept.changes, 30, "built before both changes, which did not touch 20 to 18: served from memory")
        XCTAssertEqual(kept.etag, untouched.etag)
        XCTAssertEqual(try send(other, headers: HTTPHeaders([("If-None-Match", untouched.etag!)])).status, 304)

        try feed.delete(8)
        XCTAssertEqual(try page(deep).ids, [10, 9], "a page may be short")
    }

    func testAKeptItemIsDroppedByItsEditAndItsDeletionIsGoneForGood() throws {
        let target = "/api/items/5?feed=\(feedID)"
        let before = try send(target)
        XCTAssertEqual(before.headers["Cache-Control"], CacheControl.noCache)
        try feed.edit(5, to: NewItem(title: "Edited", body: ""))
        let after = try send(target)
        XCTAssertNotEqual(after.headers["ETag"], before.headers["ETag"])
        XCTAssertTrue(String(decoding: after.body, as: UTF8.self).contains(#""version":2"#))
        try feed.delete(5)
        let gone = try send(target)
        XCTAssertEqual(gone.status, 410)
        XCTAssertEqual(gone.headers["Cache-Control"], PageCaching.immutable)
        XCTAssertEqual(try send("/api/items/5").headers["Cache-Control"], CacheControl.noCache,
                       "without the feed's name, another store may have that id")
        XCTAssertEqual(try send("/api/items/31?feed=\(feedID)").status, 404)
    }
}

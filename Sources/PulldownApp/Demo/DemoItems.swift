import InvalidInput
import PulldownFeed
import PulldownHTTP

/// `POST /api/demo/items`: adds the next N items of the demo sequence at once, in one
/// transaction, so they reach open event streams like any insert. With a data file loaded they
/// are copies of its entries (`Feed.useDemoTemplates`), so they have the user's shape.
struct DemoItems: Sendable {
    let feed: Feed
    var baseURL = BaseURL()
    static let maxCount: Int64 = 100

    func add(_ request: HTTPRequest, _ responder: Responder) {
        let count: Int
        let base: String
        do {
            count = try Self.count(JSONBody(request, emptyAllowed: true))
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        feed.addDemoItems(count: count) { result in
            responder.send(API.answer { try Self.answer(result.get(), base: base) })
        }
    }

    /// `{"count": N}`, 1 to `maxCount`; an empty body or no count adds one.
    static func count(_ body: JSONBody) throws(Problem) -> Int {
        var invalid = InvalidParameters()
        body.rejectUnknown(["count"], into: &invalid)
        let count = invalid.take(body.integer("count", in: 1...maxCount))
        try invalid.check("Some fields are invalid; no item was added.")
        return count.map { Int($0) } ?? 1
    }

    /// 201 with the new items, newest first, as a page lists them.
    private static func answer(_ items: [Item], base: String) -> HTTPResponse {
        var response = HTTPResponse.json(ResponseJSON.items(items, base: base), status: 201)
        response.headers.add("Cache-Control", CacheControl.noStore)
        return response
    }
}

import PulldownFeed
import PulldownHTTP
import Synchronization

/// `POST /api/demo/items`: adds N demo items at once, each as a post, so they join the feed's
/// group commits and reach open event streams like any insert. With a data file loaded they are
/// copies of its entries (`Feed.demoItem`), so they have the user's shape.
struct DemoItems: Sendable {
    let feed: Feed
    static let maxCount: Int64 = 100

    func add(_ request: HTTPRequest, _ responder: Responder) {
        let count: Int
        do {
            count = try Self.count(JSONBody(request, emptyAllowed: true))
        } catch {
            return responder.send(error.response)
        }
        let results = Results(expected: count)
        // Numbers picked at random: the same text for the same number, so each batch differs.
        for number in (0..<count).map({ _ in Int64.random(in: 0...Int64.max) }) {
            feed.addItem(feed.demoItem(number: number)) { result in
                guard let all = results.append(result) else { return }
                responder.send(API.answer { try Self.answer(all.map { try $0.get() }) })
            }
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
    private static func answer(_ items: [Item]) -> HTTPResponse {
        var json = JSONWriter(capacity: 256 * items.count)
        json.beginObject()
        json.key("items")
        json.beginArray()
        for item in items.sorted(by: { $0.id > $1.id }) { ResponseJSON.write(item, to: &json) }
        json.endArray()
        json.endObject()
        var response = HTTPResponse.json(json.bytes, status: 201)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// The posts' results as they come, on the feed's writer queue; the last one hands them all on.
    private final class Results: Sendable {
        private let state: Mutex<[Result<Item, any Error>]>
        private let expected: Int

        init(expected: Int) {
            self.expected = expected
            state = Mutex([])
        }

        /// Every result once all are in, nil before.
        func append(_ result: Result<Item, any Error>) -> [Result<Item, any Error>]? {
            state.withLock { results in
                results.append(result)
                return results.count == expected ? results : nil
            }
        }
    }
}

import InvalidInput
import PulldownFeed
import PulldownHTTP

/// Adding an item.
extension API {
    // MARK: POST /api/items

    /// Answers later: the post joins the feed's next group commit, so no server thread waits for
    /// the write lock or the disk.
    func addItem(_ request: HTTPRequest, _ responder: Responder) {
        let new: NewItem
        let base: String
        do {
            new = try Self.newItem(request)
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        feed.addItem(new) { result in
            responder.send(Self.answer {
                let item = try result.get()
                // The answer to this one post: the item itself may be cached at its Location.
                var response = HTTPResponse.json(ResponseJSON.item(item, base: base), status: 201)
                // In the feed as known: a label only, checked when it is asked for.
                response.headers.add("Location", "\(base)/api/items/\(item.id)?feed=\(try feed.feedID())")
                response.headers.add("Cache-Control", CacheControl.noStore)
                return response
            })
        }
    }

    /// The fields a post names; every other one is the item's own (`UserFields`).
    static let postedFields = ["title", "body", "author"]
    /// Fields the server sets.
    static let serverFields = ["id", "createdAt", "version", "editedAt"]

    /// The body of a post: `title` (required), `body`, `author`, and the item's own fields.
    static func newItem(_ request: HTTPRequest) throws(Problem) -> NewItem {
        let body = try JSONBody(request, emptyAllowed: false)
        var invalid = InvalidParameters()
        let userFields = body.userFields(core: postedFields, reserved: serverFields, into: &invalid)
        let title = invalid.required("title", body.string("title"))
        let text = invalid.take(body.string("body", nullable: true))
        let author = invalid.take(body.string("author", nullable: true))
        guard let title, invalid.all.isEmpty else { throw invalid.problem("Some fields are invalid.") }
        return NewItem(title: title, body: text ?? "", author: author, userFields: userFields)
    }
}

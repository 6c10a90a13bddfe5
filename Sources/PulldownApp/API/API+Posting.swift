import PulldownFeed
import PulldownHTTP

/// Adding an item.
extension API {
    // MARK: POST /api/items

    func addItem(_ request: HTTPRequest) -> HTTPResponse {
        Self.answer {
            let body = try JSONBody(request, emptyAllowed: false)
            var invalid = InvalidParameters()
            body.rejectUnknown(["title", "body", "author"], into: &invalid)
            let title = invalid.take(body.string("title"))
            let text = invalid.take(body.string("body"))
            let author = invalid.take(body.string("author"))
            if title == nil && !invalid.contains("title") { invalid.add("title", InvalidParameters.Reason.required) }
            try invalid.check("Some fields are invalid.")
            let item = try feed.addItem(NewItem(title: title!, body: text ?? "", author: author))
            var response = HTTPResponse.json(ResponseJSON.item(item), status: 201)
            response.headers.add("Location", "/api/items/\(item.id)")
            return response
        }
    }
}

import InvalidInput

/// An error body in the `application/problem+json` format (RFC 9457).
///
/// The server's own refusals (bad target, body too large, no such route) use it, and so
/// can handlers, so that a client meets one error format everywhere.
public struct Problem: Sendable, Error, Equatable {
    var status: Int
    var title: String
    var detail: String
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    var type: String
    public var invalidParams: [InvalidParam]
    /// Extra headers the answer needs (`Allow` on 405, `Retry-After` on 503, a `Cache-Control`
    /// other than `no-store`).
    public var headers: HTTPHeaders

    public init(status: Int, title: String, detail: String, type: String = "about:blank",
                invalidParams: [InvalidParam] = [], headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.invalidParams = invalidParams
        self.headers = headers
    }

    public var response: HTTPResponse {
        var json = JSONWriter()
        json.beginObject()
        json.key("type"); json.string(type)
        json.key("title"); json.string(title)
        json.key("status"); json.integer(status)
        json.key("detail"); json.string(detail)
        if !invalidParams.isEmpty {
            json.key("invalid_params")
            json.beginArray()
            for param in invalidParams {
                json.beginObject()
                json.key("name"); json.string(param.name)
                json.key("reason"); json.string(param.reason)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        var headers = self.headers
        headers.set("Content-Type", MediaTypes.problemJSON)
        // A refusal answers one request as it was sent: no cache keeps it, unless the problem
        // says how it may be kept (a missing item is revalidated, it may exist later).
        if !headers.contains("Cache-Control") { headers.set("Cache-Control", CacheControl.noStore) }
        return HTTPResponse(status: status, headers: headers, body: json.bytes)
    }

    public static func badRequest(_ detail: String, invalidParams: [InvalidParam] = []) -> Problem {
        Problem(status: 400, title: "Bad Request", detail: detail, invalidParams: invalidParams)
    }

    public static func notFound(_ detail: String) -> Problem {
        Problem(status: 404, title: "Not Found", detail: detail)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> Problem {
        Problem(status: 405, title: "Method Not Allowed",
                detail: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", ")).",
                headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))]))
    }

    static func contentTooLarge(limit: Int) -> Problem {
        Problem(status: 413, title: "Content Too Large",
                detail: "The request body is larger than the limit of \(limit) bytes.")
    }
}

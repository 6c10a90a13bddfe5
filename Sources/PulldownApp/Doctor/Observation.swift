import Foundation
import PulldownDoctor
import PulldownHTTP

/// One finished exchange of the API as the doctor takes it: who asked (`caller`) and what
/// (`observe`), read with the API's own parsers.
enum Observation {
    /// The session id when the request sends one (the header, else the cookie), else the
    /// address and `User-Agent`.
    static func caller(of request: HTTPRequest) -> Caller {
        let headers = request.headers
        let sent = headers[SessionResolver.headerName]
            ?? (headers.contains("Cookie") ? request.cookie(SessionResolver.cookieName).first : nil)
        // Enough of a long id to group by; a 64-digit id is kept whole, as it came.
        return Caller(session: sent.map { $0.utf8.count <= 128 ? $0 : String(decoding: $0.utf8.prefix(128), as: UTF8.self) },
                      address: request.peer?.description ?? "unknown", userAgent: headers["User-Agent"] ?? "")
    }

    static func observe(_ request: HTTPRequest, _ response: HTTPResponse, pageSize: Int, started: Date, ended: Date) -> ObservedRequest {
        let ask = self.ask(request, status: response.status, pageSize: pageSize)
        let isList: Bool
        switch ask {
        case .page, .refresh: isList = true
        default: isList = false
        }
        return ObservedRequest(method: request.method, target: request.target.raw, ask: ask,
                               sentValidator: request.headers.contains("If-None-Match"), status: response.status,
                               answer: AnswerReading.answer(response, isList: isList), started: started, ended: ended)
    }

    /// What the request asked, as the endpoint that answers it (with `status`) reads it; anything
    /// the rules leave alone, or that the endpoint refuses, is `.other`.
    static func ask(_ request: HTTPRequest, status: Int, pageSize: Int) -> ObservedRequest.Ask {
        switch (request.method, request.path) {
        case ("GET", "/api/items"):
            // A query the API took (it refuses any other with a 400) needs no second check: its
            // numbers are read as they are, which costs a fifth of parsing it again.
            guard status != 400 else { return .other }
            let number = { (name: String) in request.query.first(name).flatMap(DecimalDigits.parse) }
            let limit = number("limit").map(Int.init) ?? pageSize
            // A page around an item, or within a range, is no step of a walk the rules follow.
            if number("around") != nil || (number("before") != nil && number("after") != nil) { return .other }
            if let before = number("before") { return .page(.before(before), limit: limit) }
            if let after = number("after") { return .page(.after(after), limit: limit) }
            return .page(.newest, limit: limit)
        case ("POST", "/api/refresh"):
            return (try? API.refreshParameters(request, pageSize: pageSize)).map { .refresh(after: $0.after, changes: $0.changes) } ?? .other
        case ("GET", "/api/events"):
            do { _ = try EventsEndpoint.cursor(of: request) } catch { return .other }
            return .stream(lastEventID: request.headers["Last-Event-ID"].flatMap(DecimalDigits.parse),
                           after: request.query.first("after").flatMap(DecimalDigits.parse))
        case ("GET", let path) where path.hasPrefix("/api/items/"):
            return DecimalDigits.parse(String(path.dropFirst("/api/items/".count))).map { .item($0) } ?? .other
        default:
            return .other
        }
    }
}

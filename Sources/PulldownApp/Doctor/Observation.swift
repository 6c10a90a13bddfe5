import Foundation
import PulldownDoctor
import PulldownHTTP

/// One finished exchange of the API as the doctor takes it: who asked (`caller`) and what
/// (`observe`), read with the API's own parsers.
enum Observation {
    /// The session id when the request sends one (the header, else the cookie), else the
    /// address and `User-Agent`.
    static func caller(of request: HTTPRequest) -> Caller {
        let sent = request.headers[SessionResolver.headerName] ?? request.cookie(SessionResolver.cookieName).first
        // Enough of a long id to group by; a 64-digit id is kept whole.
        let session = sent.map { String(decoding: $0.utf8.prefix(128), as: UTF8.self) }
        let address = request.peer?.description ?? "unknown"
        let userAgent = request.headers["User-Agent"] ?? ""
        return Caller(key: Caller.key(session: session, address: address, userAgent: userAgent),
                      session: session.map { String($0.prefix(8)) }, address: address, userAgent: userAgent)
    }

    static func observe(_ request: HTTPRequest, _ response: HTTPResponse, pageSize: Int, started: Date, ended: Date) -> ObservedRequest {
        let ask = self.ask(request, pageSize: pageSize)
        let isList: Bool
        switch ask {
        case .page, .refresh: isList = true
        default: isList = false
        }
        return ObservedRequest(method: request.method, target: request.target.raw, ask: ask,
                               sentValidator: request.headers.contains("If-None-Match"), status: response.status,
                               answer: AnswerReading.answer(response, isList: isList), started: started, ended: ended)
    }

    /// What the request asked, as the endpoint that answers it reads it; anything the rules leave
    /// alone, or that the endpoint refuses, is `.other`.
    static func ask(_ request: HTTPRequest, pageSize: Int) -> ObservedRequest.Ask {
        switch (request.method, request.path) {
        case ("GET", "/api/items"):
            guard let query = try? ItemsQuery.parse(request.query, defaultLimit: pageSize) else { return .other }
            switch query.cursor {
            case .newest: return .page(.newest, limit: query.limit)
            case .before(let id): return .page(.before(id), limit: query.limit)
            case .after(let id): return .page(.after(id), limit: query.limit)
            }
        case ("POST", "/api/refresh"):
            return (try? API.refreshParameters(request, pageSize: pageSize)).map { .refresh(after: $0.after) } ?? .other
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

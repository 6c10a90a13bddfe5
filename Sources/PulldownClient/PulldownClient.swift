import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of one Pulldown server: its pages, refreshes, session, posts and live events.
///
/// The client keeps the session the server issues (from any answer's `X-Session-Id`) and sends
/// it with every request, so "Last updated" and the refresh baseline follow this client; pass a
/// saved ``sessionID`` to `init` to carry them across launches. It keeps the last pages' `ETag`s
/// and sends `If-None-Match`, so an unchanged page costs a 304 and comes back as the page kept
/// (``Page/notModified``). Every 4xx and 5xx is thrown as ``ProblemDetails``; transport failures
/// are thrown as URLSession throws them. Cookies and URLSession's own cache are not used.
///
/// All of it is safe to use from any task at once.
public final class PulldownClient: Sendable {
    /// The server's address, e.g. `http://127.0.0.1:8080`; the API's paths are added to it.
    public let baseURL: URL
    let session: URLSession
    private let state: Locked<State>

    private struct State {
        var sessionID: String?
        var cache = ETagCache(capacity: 64)
    }

    /// A client of the server at `baseURL`, in the session `sessionID` if one was saved.
    public init(baseURL: URL, sessionID: String? = nil) {
        self.baseURL = baseURL
        session = URLSession(configuration: Self.configuration(timeout: 60))
        state = Locked(State(sessionID: sessionID))
    }

    /// The session the server issued, to save and pass to `init` next time; nil until an answer
    /// carried one.
    public var sessionID: String? { state.withLock { $0.sessionID } }

    /// No cookies, no cache of URLSession's own: the session and the validators are the client's.
    /// `timeout` is how long a connection may stay silent.
    static func configuration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        return configuration
    }

    // MARK: The feed

    /// The page `query` asks for.
    public func page(_ query: PageQuery = .newest) async throws -> Page {
        try await page(at: url("api/items", query: query.queryItems),
                       headers: query.count ? ["Prefer": "count=exact"] : [:])
    }

    /// The page at `url`: a page's ``Page/next``.
    public func page(at url: URL) async throws -> Page {
        try await page(at: url, headers: [:])
    }

    private func page(at url: URL, headers: [String: String]) async throws -> Page {
        let answer = try await send(request(url, headers: headers), revalidate: true)
        let body = try answer.decode(PageBody.self)
        let link = { (relation: String) in answer.headers["link"].flatMap { LinkHeader.target($0, relation: relation, base: answer.url) } }
        return Page(items: body.items, limit: body.limit, hasMore: body.hasMore, feed: body.feed,
                    next: link("next"), nextCursor: body.next, previous: link("prev"), previousCursor: body.prev,
                    anchor: body.anchor, rangeDone: body.rangeDone,
                    totalCount: answer.headers["x-total-count"].flatMap { Int($0) }, changes: body.changes,
                    etag: answer.headers["etag"], notModified: answer.notModified)
    }

    /// The pages from `query` on, each one the `Link` of the one before, until the last.
    public func pages(_ query: PageQuery = .newest) -> Pages {
        Pages(client: self, first: query)
    }

    /// Item `id`, of `feed` if given.
    public func item(_ id: Int64, feed: FeedID? = nil) async throws -> Item {
        let query = feed.map { [URLQueryItem(name: "feed", value: $0.rawValue)] } ?? []
        return try await send(request(url("api/items/\(id)", query: query)), revalidate: true).decode(Item.self)
    }

    /// Pull to refresh: the items newer than `after` (default: the newest this session has
    /// received), at most `limit` (default: the server's page size), and the items edited and
    /// deleted since `changes` (a page's or the last refresh's ``RefreshResult/changes``;
    /// default: since the session's last refresh); stamps the session's last-updated time.
    public func refresh(after: Int64? = nil, changes: Int64? = nil, limit: Int? = nil) async throws -> RefreshResult {
        var body: [String: Int64] = [:]
        body["after"] = after
        body["changes"] = changes
        body["limit"] = limit.map(Int64.init)
        return try await send(request(url("api/refresh"), method: "POST", json: body)).decode(RefreshResult.self)
    }

    /// What the server keeps for this session: when it last refreshed.
    public func sessionState() async throws -> SessionState {
        try await send(request(url("api/session"))).decode(SessionState.self)
    }

    /// Adds an item; the next refresh and every open event stream get it.
    public func post(_ item: NewItem) async throws -> Item {
        try await send(request(url("api/items"), method: "POST", json: item)).decode(Item.self)
    }

    /// Edits item `id` with a JSON merge patch (RFC 7396: a member given replaces it, `.null`
    /// removes it); returns the item as it is now. Every open event stream gets it as
    /// ``Change/updated(_:sequence:)``, every refresh after lists it. Beyond loopback the server
    /// wants its demo token (`headers: ["Authorization": "Bearer …"]`).
    @discardableResult
    public func edit(_ id: Int64, _ patch: [String: JSONValue], headers: [String: String] = [:]) async throws -> Item {
        let headers = headers.merging(["Content-Type": "application/merge-patch+json"]) { $1 }
        return try await send(request(url("api/items/\(id)"), method: "PATCH", json: patch, headers: headers)).decode(Item.self)
    }

    /// Deletes item `id` for good: pages leave its place empty, its URL answers 410, and streams
    /// and refreshes tell of it as ``Change/deleted(id:sequence:)``.
    public func delete(_ id: Int64, headers: [String: String] = [:]) async throws {
        _ = try await send(request(url("api/items/\(id)"), method: "DELETE", headers: headers))
    }

    // MARK: Requests

    /// The API's `path` with `query`.
    func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: true)!
        if !query.isEmpty { components.queryItems = query }
        return components.url!
    }

    /// A request for `url`, with the session and, for a body, `json` encoded.
    func request(_ url: URL, method: String = "GET", json: (some Encodable)? = Optional<Int>.none,
                 accept: String = "application/json", headers: [String: String] = [:]) throws -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue(accept, forHTTPHeaderField: "Accept")
        request.setValue("PulldownClient", forHTTPHeaderField: "User-Agent")
        if let id = sessionID { request.setValue(id, forHTTPHeaderField: "X-Session-Id") }
        if let json {
            request.httpBody = try JSONEncoder().encode(json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Sends `request`: the answer when it is a success, else its ``ProblemDetails`` thrown.
    /// `revalidate`: send the kept page's validator, and answer a 304 with the page kept.
    func send(_ request: URLRequest, revalidate: Bool = false) async throws -> Answer {
        var request = request
        let url = request.url!
        let kept = revalidate ? state.withLock { $0.cache.answer(for: url) } : nil
        if let etag = kept?.headers["etag"] { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let (body, response) = try await session.data(for: request)
        guard let response = response as? HTTPURLResponse else {
            throw UnexpectedAnswer(url: url, status: 0, reason: "not an HTTP answer")
        }
        var answer = Answer(url: url, response: response, body: body)
        noteSession(answer.headers["x-session-id"])
        switch answer.status {
        case 304 where kept != nil:
            answer = kept!
            answer.notModified = true
        case 200..<300:
            if revalidate { state.withLock { $0.cache.keep(answer) } }
        default:
            throw ProblemDetails(status: answer.status, body: body, retryAfter: answer.headers["retry-after"])
        }
        return answer
    }

    /// An answer's `X-Session-Id`: the session from now on.
    func noteSession(_ id: String?) {
        guard let id, !id.isEmpty else { return }
        state.withLock { $0.sessionID = id }
    }
}

/// The feed's pages, one after another by their `Link` headers: newest first from the newest page
/// (or older than a cursor), or walking newer from an `after` cursor. Each page is fetched when
/// the loop asks for it; an error ends the loop with it.
public struct Pages: AsyncSequence, Sendable {
    public typealias Element = Page

    let client: PulldownClient
    let first: PageQuery

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, step: .query(first))
    }

    /// Fetches one page per `next()`: the first by the query, then each by the last one's link.
    public struct Iterator: AsyncIteratorProtocol {
        enum Step {
            case query(PageQuery)
            case link(URL)
            case done
        }

        let client: PulldownClient
        var step: Step

        public mutating func next() async throws -> Page? {
            let page: Page
            switch step {
            case .query(let query): page = try await client.page(query)
            case .link(let url): page = try await client.page(at: url)
            case .done: return nil
            }
            step = page.next.map(Step.link) ?? .done
            return page
        }
    }
}

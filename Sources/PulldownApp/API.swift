import Foundation
import PulldownFeed
import PulldownHTTP

/// The JSON API: each endpoint turns a request into feed calls and the result into JSON.
struct API: Sendable {
    let feed: Feed
    let sessions: SessionResolver
    let pageSize: Int
    let newestPages = NewestPageCache()
    /// Pages that can never change, ready to send (see `PageCaching`).
    var immutablePages = ImmutablePageCache(bytes: Configuration.defaultPageCacheBytes)

    /// The API's routes, added to the server's one router.
    func addRoutes(to router: inout Router, openAPI: HTTPResponse) {
        router.add("GET", "/api/items", answeringLater: { request, responder in self.items(request, responder) })
        router.post("/api/items") { request in self.addItem(request) }
        router.get("/api/items/{id}") { request in self.item(request) }
        router.add("POST", "/api/refresh", answeringLater: { request, responder in self.refresh(request, responder) })
        router.get("/api/session") { request in self.session(request) }
        router.get("/api/openapi.json") { request in Self.conditional(openAPI, for: request) }
    }

    /// Any other path under /api/.
    static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        Problem.notFound("There is no API endpoint at \(request.path); see /api/openapi.json.").response
    }

    /// Runs `body`, turning a thrown problem into its response and any other error into a 503:
    /// a store error means the store is not answering, which is not the client's fault.
    private static func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let problem as Problem {
            return problem.response
        } catch FeedError.invalid(let fields) {
            return Problem.badRequest("Some fields are invalid.",
                                      invalidParams: fields.map { .init(name: $0.name, reason: $0.reason) }).response
        } catch {
            return storeFailure(error)
        }
    }

    /// The 503 for a store that did not answer. The reason names the database (a path, a host),
    /// which is the operator's business, not the client's: it goes to the server's log only.
    private static func storeFailure(_ error: any Error) -> HTTPResponse {
        ErrorLog.write("store error: \(error)")
        return Problem(status: 503, title: "Service Unavailable",
                       detail: "The store did not answer. Try again in a moment.",
                       headers: HTTPHeaders([("Retry-After", "1")])).response
    }

    // MARK: GET /api/items

    /// Pages are the same for every caller, so they carry no session: a poller or a CDN can
    /// reuse them, and the newest page is served from memory until the next insert.
    ///
    /// On a shared store the newest page waits for a check of the store's newest id; while one
    /// is in flight the request waits for the next without holding a server thread.
    func items(_ request: HTTPRequest, _ responder: Responder) {
        let query: ItemsQuery
        do {
            query = try ItemsQuery.parse(request.query, defaultLimit: pageSize)
        } catch {
            return responder.send(error.response)
        }
        guard query.cursor == .newest else {
            return responder.send(Self.answer { Self.conditional(try page(query), for: request) })
        }
        feed.withCurrentRevision { revision in
            // No second check in here: this may run on the thread that made the check, which
            // answers every request that waited for it in turn.
            responder.send(Self.answer {
                let response = try newestPages.response(limit: query.limit, revision: revision.get()) {
                    try pageResponse(feed.page(before: nil, limit: query.limit), query: query, immutable: false)
                }
                return Self.conditional(response, for: request)
            })
        }
    }

    /// A page other than the newest: kept ready if it can never change, else read.
    private func page(_ query: ItemsQuery) throws -> HTTPResponse {
        if let kept = immutablePages.response(for: query) { return kept }
        let page: ItemPage
        var newest: Int64?
        switch query.cursor {
        case .after(let id):
            // Fixed or not by its own items alone: no newest id needed (a check, on a shared store).
            page = try feed.newer(after: id, limit: query.limit)
        case .before(let id):
            // The newest id is read before the page, so a page called fixed is at least that old.
            newest = feed.newestID()
            page = try feed.page(before: id, limit: query.limit)
        case .newest:
            preconditionFailure("the newest page is answered by items(_:_:)")
        }
        let immutable = PageCaching.isImmutable(query, page: page, newestID: newest)
        let built = pageResponse(page, query: query, immutable: immutable)
        return immutable ? immutablePages.keep(built, for: query) : built
    }

    /// 304 when the request's `If-None-Match` names the response's ETag, else the response.
    static func conditional(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard let etag = response.headers["ETag"] else { return response }
        let matches = EntityTag.matches(ifNoneMatch: request.headers["If-None-Match"], etag: etag)
        return matches ? response.notModified() : response
    }

    /// A page as JSON with its ETag, `Cache-Control` and `Link` headers.
    func pageResponse(_ page: ItemPage, query: ItemsQuery, immutable: Bool) -> HTTPResponse {
        let body = ResponseJSON.page(page, limit: query.limit)
        var response = HTTPResponse.json(body)
        response.headers.add("ETag", EntityTag.strong(for: body))
        response.headers.add("Cache-Control", immutable ? PageCaching.immutable : PageCaching.revalidate)
        if let link = Self.nextLink(page: page, query: query) { response.headers.add("Link", link) }
        return response
    }

    /// The `Link` header (RFC 8288) to the next page in the direction being walked.
    static func nextLink(page: ItemPage, query: ItemsQuery) -> String? {
        guard page.hasMore else { return nil }
        switch query.cursor {
        case .newest, .before:
            guard let oldest = page.items.last else { return nil }
            return "</api/items?limit=\(query.limit)&before=\(oldest.id)>; rel=\"next\""
        case .after:
            // Walking towards newer items: the next batch starts after the newest one shown.
            guard let newest = page.items.first else { return nil }
            return "</api/items?limit=\(query.limit)&after=\(newest.id)>; rel=\"next\""
        }
    }

    // MARK: GET /api/items/{id}

    func item(_ request: HTTPRequest) -> HTTPResponse {
        // Decimal digits only, like the cursors; anything else names no item.
        guard let id = request.pathParameters["id"].flatMap(DecimalDigits.parse) else {
            return Self.notFound(request)
        }
        return Self.answer {
            let page = try feed.page(before: id == Int64.max ? id : id + 1, limit: 1)
            guard let item = page.items.first, item.id == id else {
                // It may exist later: ask again.
                var missing = Problem.notFound("There is no item \(id).")
                missing.headers.add("Cache-Control", PageCaching.revalidate)
                throw missing
            }
            // An item never changes once it exists.
            let body = ResponseJSON.item(item)
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", EntityTag.strong(for: body))
            response.headers.add("Cache-Control", PageCaching.immutable)
            return Self.conditional(response, for: request)
        }
    }

    // MARK: POST /api/items

    func addItem(_ request: HTTPRequest) -> HTTPResponse {
        Self.answer {
            let body = try JSONBody(request, emptyAllowed: false)
            try body.rejectUnknown(["title", "body", "author"])
            var invalid: [Problem.InvalidParam] = []
            func field(_ name: String) -> String? {
                switch body.string(name) {
                case .success(let value): return value
                case .failure(let param): invalid.append(param); return nil
                }
            }
            let title = field("title"), text = field("body"), author = field("author")
            if title == nil && !invalid.contains(where: { $0.name == "title" }) {
                invalid.append(.init(name: "title", reason: "is required"))
            }
            guard invalid.isEmpty, let title else {
                throw Problem.badRequest("Some fields are invalid.", invalidParams: invalid)
            }
            let item = try feed.addItem(NewItem(title: title, body: text ?? "", author: author))
            // The answer to this one post: the item itself is cached at its Location.
            var response = HTTPResponse.json(ResponseJSON.item(item), status: 201)
            response.headers.add("Location", "/api/items/\(item.id)")
            response.headers.add("Cache-Control", "no-store")
            return response
        }
    }

    // MARK: POST /api/refresh

    /// Answers later: the refresh joins the feed's next group commit, so no server thread
    /// waits for the write lock.
    func refresh(_ request: HTTPRequest, _ responder: Responder) {
        let session = sessions.resolve(request)
        let sessions = self.sessions
        let send: @Sendable (HTTPResponse) -> Void = { response in
            var response = response
            sessions.stamp(&response, with: session)
            responder.send(response)
        }
        let parsed: (after: Int64?, limit: Int)
        do {
            parsed = try Self.refreshParameters(request, pageSize: pageSize)
        } catch {
            return send(error.response)
        }
        feed.refresh(session: session.id, after: parsed.after, limit: parsed.limit) { result in
            send(Self.answer {
                var response = HTTPResponse.json(ResponseJSON.refresh(try result.get()))
                response.headers.add("Cache-Control", "no-store")
                return response
            })
        }
    }

    /// The body of a refresh: optional `after` and `limit`, nothing else.
    static func refreshParameters(_ request: HTTPRequest, pageSize: Int) throws(Problem) -> (after: Int64?, limit: Int) {
        let body = try JSONBody(request, emptyAllowed: true)
        try body.rejectUnknown(["after", "limit"])
        var invalid: [Problem.InvalidParam] = []
        var after: Int64?
        var limit: Int64?
        switch body.integer("after", in: 0...Int64.max) {
        case .success(let value): after = value
        case .failure(let param): invalid.append(param)
        }
        switch body.integer("limit", in: 1...Int64(Configuration.maxPageSize)) {
        case .success(let value): limit = value
        case .failure(let param): invalid.append(param)
        }
        guard invalid.isEmpty else { throw Problem.badRequest("Some fields are invalid.", invalidParams: invalid) }
        return (after, limit.map(Int.init) ?? pageSize)
    }

    // MARK: GET /api/session

    func session(_ request: HTTPRequest) -> HTTPResponse {
        let session = sessions.resolve(request)
        var response = Self.answer {
            // A new session has nothing stored; reading never creates a row.
            let state = session.isNew ? nil : try feed.session(session.id)
            var response = HTTPResponse.json(ResponseJSON.session(state))
            response.headers.add("Cache-Control", "no-store")
            return response
        }
        sessions.stamp(&response, with: session)
        return response
    }

    // MARK: GET /healthz

    func health() -> HTTPResponse {
        Self.answer {
            try feed.checkHealth()
            var response = HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8))
            response.headers.add("Cache-Control", "no-store")
            return response
        }
    }
}

import Foundation
import PulldownFeed
import PulldownHTTP

/// The JSON API: each endpoint turns a request into feed calls and the result into JSON.
struct API: Sendable {
    let feed: Feed
    let sessions: SessionResolver
    let pageSize: Int
    /// The newest page for each page size, ready to send until the feed's revision moves.
    let newestPages = RevisionCache<Int, UInt64, HTTPResponse>()
    /// Pages that can never change, ready to send (see `PageCaching`).
    var immutablePages = ImmutablePageCache(bytes: Configuration().pageCacheBytes)

    /// The API's routes, added to the server's one router.
    func addRoutes(to router: inout Router, openAPI: HTTPResponse) {
        router.add("GET", "/api/items", answeringLater: { request, responder in self.items(request, responder) })
        router.post("/api/items") { request in self.addItem(request) }
        router.get("/api/items/{id}") { request in self.item(request) }
        router.add("POST", "/api/refresh", answeringLater: { request, responder in self.refresh(request, responder) })
        router.get("/api/session") { request in self.session(request) }
        router.get("/api/openapi.json") { request in openAPI.conditional(for: request) }
    }

    /// Any other path under /api/.
    static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        Problem.notFound("There is no API endpoint at \(request.path); see /api/openapi.json.").response
    }

    /// Runs `body`, turning what it throws into the answer that error knows (`HTTPResponseError`).
    private static func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch {
            return HTTPResponse(answering: error)
        }
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
            return responder.send(Self.answer { try page(query).conditional(for: request) })
        }
        feed.withCurrentRevision { revision in
            // No second check in here: this may run on the thread that made the check, which
            // answers every request that waited for it in turn.
            responder.send(Self.answer {
                let response = try newestPages.value(for: query.limit, at: revision.get()) {
                    let page = try feed.page(before: nil, limit: query.limit)
                    return HTTPResponse(prepared: PreparedResponse(pageResponse(page, query: query, immutable: false)))
                }
                return response.conditional(for: request)
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
            page = try feed.page(after: id, limit: query.limit)
        case .before(let id):
            // The newest id is read before the page, so a page called fixed is at least that old.
            // It is the id this process knows, without the shared store's check: one that lags
            // only calls fewer pages fixed, and no server thread waits for another's query.
            newest = try feed.newestID()
            page = try feed.page(before: id, limit: query.limit)
        case .newest:
            preconditionFailure("the newest page is answered by items(_:_:)")
        }
        let immutable = PageCaching.isImmutable(query, page: page, newestID: newest)
        let built = pageResponse(page, query: query, immutable: immutable)
        return immutable ? immutablePages.keep(built, for: query) : built
    }

    /// A page as JSON with its ETag, `Cache-Control` and `Link` headers.
    func pageResponse(_ page: ItemPage, query: ItemsQuery, immutable: Bool) -> HTTPResponse {
        let body = ResponseJSON.page(page, limit: query.limit)
        var response = HTTPResponse.json(body)
        response.headers.add("ETag", EntityTag.strong(for: body))
        response.headers.add("Cache-Control", immutable ? PageCaching.immutable : PageCaching.revalidate)
        if let link = Self.nextLink(page: page, limit: query.limit) { response.headers.add("Link", link) }
        return response
    }

    /// The `Link` header (RFC 8288) to the next page in the direction being walked.
    static func nextLink(page: ItemPage, limit: Int) -> String? {
        guard page.hasMore else { return nil }
        switch page.direction {
        case .older:
            guard let oldest = page.items.last else { return nil }
            return "</api/items?limit=\(limit)&before=\(oldest.id)>; rel=\"next\""
        case .newer:
            // Walking towards newer items: the next batch starts after the newest one shown.
            guard let newest = page.items.first else { return nil }
            return "</api/items?limit=\(limit)&after=\(newest.id)>; rel=\"next\""
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
            return response.conditional(for: request)
        }
    }

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
        var invalid = InvalidParameters()
        body.rejectUnknown(["after", "limit"], into: &invalid)
        let after = invalid.take(body.integer("after", in: 0...Int64.max))
        let limit = invalid.take(body.integer("limit", in: 1...Int64(Feed.maxPageSize)))
        try invalid.check("Some fields are invalid.")
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

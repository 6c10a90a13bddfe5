import PulldownFeed
import PulldownHTTP

/// Reading the feed: keyset pages and single items, kept ready where they can be.
extension API {
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
        // Read before the page: a page kept under it is at least that new.
        let generation = feed.generation
        if let kept = immutablePages.response(for: query, generation: generation) { return kept }
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
        return immutable ? immutablePages.keep(built, for: query, generation: generation) : built
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
}

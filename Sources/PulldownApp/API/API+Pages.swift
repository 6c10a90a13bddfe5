import PulldownFeed
import PulldownHTTP

/// Reading the feed: keyset pages and single items, kept ready where they can be.
extension API {
    // MARK: GET /api/items

    /// Pages are the same for every caller, so they carry no session: a poller or a CDN can
    /// reuse them, and the newest page is served from memory until the next insert.
    ///
    /// On a shared store the newest page, and any page whose URL names a feed, waits for a check
    /// of the store's newest id and identity; while one is in flight the request waits for the
    /// next without holding a server thread.
    func items(_ request: HTTPRequest, _ responder: Responder) {
        let query: ItemsQuery
        let key: BaseURL.Key
        do {
            query = try ItemsQuery.parse(request.query, defaultLimit: pageSize)
            key = try baseURL.key(of: request)
        } catch {
            return responder.send(error.response)
        }
        guard query.cursor == .newest || query.feed != nil else {
            // Names no feed: answered, never promised, so no check of the store is needed.
            return responder.send(Self.answer {
                let (page, _) = try read(query)
                return try pageResponse(page, query: query, feed: feed.feedID(), base: baseURL.require(request),
                                        immutable: false).conditional(for: request)
            })
        }
        feed.withCurrentState { state in
            // No second check in here: this may run on the thread that made the check, which
            // answers every request that waited for it in turn.
            responder.send(Self.answer {
                let state = try state.get()
                if let named = query.feed, named != state.id { throw Self.feedChanged }
                guard query.cursor == .newest else {
                    return try namedPage(query, in: state.id, for: request, key: key).conditional(for: request)
                }
                // Kept by the base's key: the base itself is built only for a page not kept yet.
                let response = try newestPages.value(for: NewestPageKey(base: key, limit: query.limit), at: state.revision) {
                    let page = try feed.page(before: nil, limit: query.limit)
                    return HTTPResponse(prepared: PreparedResponse(pageResponse(page, query: query, feed: state.id,
                                                                                base: try baseURL.require(request), immutable: false)))
                }
                return response.conditional(for: request)
            })
        }
    }

    /// A page other than the newest whose URL names the current feed: kept ready if it can
    /// never change, else read; a 410 if the feed was reset while it was read.
    private func namedPage(_ query: ItemsQuery, in feedID: FeedID, for request: HTTPRequest, key: BaseURL.Key) throws -> HTTPResponse {
        if let kept = immutablePages.response(for: query, base: key) { return kept }
        guard let (page, newest) = try feed.reading(inFeed: feedID, { try read(query) }) else { throw Self.feedChanged }
        let immutable = PageCaching.isImmutable(query, page: page, newestID: newest)
        let built = pageResponse(page, query: query, feed: feedID, base: try baseURL.require(request), immutable: immutable)
        return immutable ? immutablePages.keep(built, for: query, base: key) : built
    }

    /// The page a cursor other than the newest names, and for `before=` the newest id read
    /// before it.
    private func read(_ query: ItemsQuery) throws -> (ItemPage, newest: Int64?) {
        switch query.cursor {
        case .after(let id):
            // Fixed or not by its own items alone: no newest id needed (a check, on a shared store).
            return (try feed.page(after: id, limit: query.limit), nil)
        case .before(let id):
            // The newest id is read before the page, so a page called fixed is at least that old.
            // It is the id this process knows, without the shared store's check: one that lags
            // only calls fewer pages fixed, and no server thread waits for another's query.
            let newest = try feed.newestID()
            return (try feed.page(before: id, limit: query.limit), newest)
        case .newest:
            preconditionFailure("the newest page is answered by items(_:_:)")
        }
    }

    /// A page as JSON with its ETag, `Cache-Control`, `Link` and cross-origin headers, for
    /// `base` (`BaseURL`).
    func pageResponse(_ page: ItemPage, query: ItemsQuery, feed: FeedID, base: String, immutable: Bool) -> HTTPResponse {
        let body = ResponseJSON.page(page, limit: query.limit, feed: feed, base: base)
        var response = HTTPResponse.json(body)
        response.headers.add("ETag", EntityTag.strong(for: body))
        response.headers.add("Cache-Control", immutable ? PageCaching.immutable : PageCaching.revalidate)
        if let link = Self.nextLink(page: page, limit: query.limit, feed: feed, base: base) { response.headers.add("Link", link) }
        // Kept ready, so the headers the CORS middleware would add are in it already.
        cors.addSharedHeaders(to: &response)
        return response
    }

    /// The `Link` header (RFC 8288) to the next page in the direction being walked, in `feed`:
    /// an absolute URL under `base`.
    static func nextLink(page: ItemPage, limit: Int, feed: FeedID, base: String) -> String? {
        guard page.hasMore else { return nil }
        switch page.direction {
        case .older:
            guard let oldest = page.items.last else { return nil }
            return "<\(base)/api/items?limit=\(limit)&before=\(oldest.id)&feed=\(feed)>; rel=\"next\""
        case .newer:
            // Walking towards newer items: the next batch starts after the newest one shown.
            guard let newest = page.items.first else { return nil }
            return "<\(base)/api/items?limit=\(limit)&after=\(newest.id)&feed=\(feed)>; rel=\"next\""
        }
    }

    /// A cursor or an item from a feed this server no longer serves (a reset, another store).
    static var feedChanged: Problem {
        Problem(status: 410, title: "Gone",
                detail: "This cursor belongs to a feed this server no longer serves; start again from the newest page.",
                type: "tag:pulldown,2026:feed-changed")
    }

    // MARK: GET /api/items/{id}

    /// An item, immutable when its URL names the current feed (see `PageCaching`); like a page,
    /// that waits for the shared store's check.
    func item(_ request: HTTPRequest, _ responder: Responder) {
        // Decimal digits only, like the cursors; anything else names no item.
        guard let id = request.pathParameters["id"].flatMap(DecimalDigits.parse) else {
            return responder.send(Self.notFound(request))
        }
        var reader = QueryReader(request.query)
        let named = reader.feedID()
        let base: String
        do {
            try reader.invalid.check("The query has invalid parameters.")
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        guard let named else {
            return responder.send(Self.answer {
                try itemResponse(readItem(id), id: id, named: nil, base: base).conditional(for: request)
            })
        }
        feed.withCurrentState { state in
            responder.send(Self.answer {
                guard try state.get().id == named, let found = try feed.reading(inFeed: named, { try readItem(id) }) else {
                    throw Self.feedChanged
                }
                return try itemResponse(found, id: id, named: named, base: base).conditional(for: request)
            })
        }
    }

    private func readItem(_ id: Int64) throws -> Item? {
        let page = try feed.page(before: id == Int64.max ? id : id + 1, limit: 1)
        return page.items.first.flatMap { $0.id == id ? $0 : nil }
    }

    private func itemResponse(_ item: Item?, id: Int64, named: FeedID?, base: String) throws -> HTTPResponse {
        guard let item else {
            // It may exist later: ask again.
            var missing = Problem.notFound("There is no item \(id).")
            missing.headers.add("Cache-Control", PageCaching.revalidate)
            throw missing
        }
        let body = ResponseJSON.item(item, base: base)
        var response = HTTPResponse.json(body)
        response.headers.add("ETag", EntityTag.strong(for: body))
        response.headers.add("Cache-Control", PageCaching.isItemImmutable(named: named) ? PageCaching.immutable : PageCaching.revalidate)
        return response
    }
}

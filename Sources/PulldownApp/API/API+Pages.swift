import Foundation
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
        let plan: PagePlan
        do {
            query = try ItemsQuery.parse(request.query, prefer: request.headers["Prefer"], defaultLimit: pageSize)
            key = try baseURL.key(of: request)
            let knobs = demo?.knobs ?? DemoKnobs()
            plan = try PagePlan(query, shortPages: knobs.shortPages, cursorTtlSeconds: knobs.cursorTtlSeconds,
                                now: Int64(feed.now().timeIntervalSince1970), roll: Double.random(in: 0..<1))
        } catch {
            return responder.send(error.response)
        }
        guard query.cursor == .newest || query.feed != nil else {
            // Names no feed: answered, never kept, so no check of the store is needed.
            return responder.send(Self.answer {
                let sequence = try feed.sequence()
                let (page, _) = try read(query, limit: plan.readLimit)
                return try pageResponse(page, query: query, plan: plan, feed: feed.feedID(), sequence: sequence,
                                        base: baseURL.require(request)).conditional(for: request)
            })
        }
        feed.withCurrentState { state in
            // No second check in here: this may run on the thread that made the check, which
            // answers every request that waited for it in turn.
            responder.send(Self.answer {
                let state = try state.get()
                if let named = query.feed, named != state.id { throw Self.feedChanged }
                guard plan.keepable else {
                    // Not kept, so only a reset during the read matters, as for a kept page.
                    let page: ItemPage? = try feed.reading(inFeed: state.id) { try self.read(query, limit: plan.readLimit).0 }
                    guard let page else { throw Self.feedChanged }
                    return try pageResponse(page, query: query, plan: plan, feed: state.id, sequence: state.sequence,
                                            base: baseURL.require(request)).conditional(for: request)
                }
                guard query.cursor == .newest else {
                    return try namedPage(query, in: state, for: request, key: key).conditional(for: request)
                }
                // Kept by the base's key: the base itself is built only for a page not kept yet.
                let response = try newestPages.value(for: NewestPageKey(base: key, limit: query.limit), at: state.revision) {
                    let page = try feed.page(before: nil, limit: query.limit)
                    return HTTPResponse(prepared: PreparedResponse(try pageResponse(page, query: query, feed: state.id, sequence: state.sequence,
                                                                                base: try baseURL.require(request))))
                }
                return response.conditional(for: request)
            })
        }
    }

    /// A page other than the newest whose URL names the current feed: from memory if kept, else
    /// read (and kept if its places can never change); a 410 if the feed was reset while it was
    /// read.
    private func namedPage(_ query: ItemsQuery, in state: FeedState, for request: HTTPRequest,
                           key base: BaseURL.Key) throws -> HTTPResponse {
        let key = ValidatedPageCache.Key(query, base: base)
        if let key, let kept = pages.response(for: key) { return kept }
        // Before the read: a change that drops pages while it runs keeps this one out.
        let epoch = pages.epoch
        guard let (page, newest) = try feed.reading(inFeed: state.id, { try read(query, limit: query.limit) }) else { throw Self.feedChanged }
        let built = try pageResponse(page, query: query, feed: state.id, sequence: state.sequence, base: try baseURL.require(request))
        guard let key, let ids = PageCaching.keptRange(query, page: page, newestID: newest) else { return built }
        return pages.keep(built, for: key, ids: ids, builtAt: epoch)
    }

    /// The page `query` names, of `limit` places, and for `before=` (alone or with `after=`)
    /// the newest id read before it.
    private func read(_ query: ItemsQuery, limit: Int) throws -> (ItemPage, newest: Int64?) {
        switch query.cursor {
        case .newest:
            return (try feed.page(before: nil, limit: limit), nil)
        case .after(let id):
            // Fixed or not by its own places alone: no newest id needed (a check, on a shared store).
            return (try feed.page(after: id, limit: limit), nil)
        case .around(let id):
            return (try feed.page(around: id, limit: limit), nil)
        case .before(let id):
            // The newest id is read before the page, so a page called fixed is at least that old.
            // It is the id this process knows, without the shared store's check: one that lags
            // only calls fewer pages fixed, and no server thread waits for another's query.
            let newest = try feed.newestID()
            return (try feed.page(before: id, limit: limit), newest)
        case .between(let after, let before):
            let newest = try feed.newestID()
            return (try feed.page(after: after, before: before, limit: limit), newest)
        }
    }

    /// A page as JSON with its ETag, `Cache-Control`, `Link` and cross-origin headers, for
    /// `base` (`BaseURL`); `sequence` is the feed's, read before the page. With a count asked
    /// for (`plan`), `X-Total-Count` is the live items now, and the ETag covers it too.
    func pageResponse(_ page: ItemPage, query: ItemsQuery, plan: PagePlan? = nil, feed: FeedID, sequence: Int64,
                      base: String) throws -> HTTPResponse {
        let body = ResponseJSON.page(page, limit: query.limit, feed: feed, sequence: sequence, base: base)
        var response = HTTPResponse.json(body)
        let total = try plan?.count == true ? self.feed.itemCount() : nil
        // The count goes into the tag: the same items with another count are another answer.
        response.headers.add("ETag", EntityTag.strong(for: total.map { body + Array("\n\($0)".utf8) } ?? body))
        response.headers.add("Cache-Control", CacheControl.noCache)
        if let link = Self.nextLink(page: page, limit: query.limit, feed: feed, base: base, issued: plan?.issued) {
            response.headers.add("Link", link)
        }
        // `Prefer: count=exact` makes another answer of the same URL: a cache must tell them apart.
        response.headers.add("Vary", "Prefer")
        if let total {
            response.headers.add("X-Total-Count", String(total))
            response.headers.add("Preference-Applied", "count=exact")
        }
        // Kept ready, so the headers the CORS middleware would add are in it already.
        cors.addSharedHeaders(to: &response)
        return response
    }

    /// A cursor or an item from a feed this server no longer serves (a reset, another store).
    static var feedChanged: Problem {
        Problem(status: 410, title: "Gone",
                detail: "This cursor belongs to a feed this server no longer serves; start again from the newest page.",
                type: "tag:pulldown,2026:feed-changed")
    }

    // MARK: GET /api/items/{id}

    /// An item as it is now: kept in memory when its URL names the current feed, until it is
    /// edited or deleted (see `PageCaching`); like a page, that waits for the shared store's
    /// check. A deleted item is a 410.
    func item(_ request: HTTPRequest, _ responder: Responder) {
        guard let (id, named) = Self.itemTarget(request, responder) else { return }
        let base: String, baseKey: BaseURL.Key
        do {
            (base, baseKey) = (try baseURL.require(request), try baseURL.key(of: request))
        } catch {
            return responder.send(error.response)
        }
        guard let named else {
            return responder.send(Self.answer {
                try itemResponse(id: id, named: nil, base: base) { try feed.item(id) }.conditional(for: request)
            })
        }
        feed.withCurrentState { state in
            responder.send(Self.answer {
                guard try state.get().id == named else { throw Self.feedChanged }
                let key = ValidatedPageCache.Key(item: id, in: named, base: baseKey)
                if let kept = pages.response(for: key) { return kept.conditional(for: request) }
                let epoch = pages.epoch
                let built = try itemResponse(id: id, named: named, base: base) {
                    // Read as of the named feed, or the feed changed under it: a 410 either way.
                    let read = try feed.reading(inFeed: named) { Result { try feed.item(id) } }
                    guard let read else { throw Self.feedChanged }
                    return try read.get()
                }
                return pages.keep(built, for: key, ids: id...id, builtAt: epoch).conditional(for: request)
            })
        }
    }

    /// The item's id and the feed its URL names, or nil once the refusal was sent.
    static func itemTarget(_ request: HTTPRequest, _ responder: Responder) -> (Int64, FeedID?)? {
        // Decimal digits only, like the cursors; anything else names no item.
        guard let id = request.pathParameters["id"].flatMap(DecimalDigits.parse) else {
            responder.send(notFound(request))
            return nil
        }
        var reader = QueryReader(request.query)
        let named = reader.feedID()
        do {
            try reader.invalid.check("The query has invalid parameters.")
        } catch {
            responder.send(error.response)
            return nil
        }
        return (id, named)
    }

    /// The answer for item `id` as `read` finds it: the item, or the problem for one that never
    /// was (it may exist later: revalidated) or was deleted (for good: see `PageCaching.gone`).
    private func itemResponse(id: Int64, named: FeedID?, base: String, read: () throws -> Item?) throws -> HTTPResponse {
        let item: Item?
        do {
            item = try read()
        } catch FeedError.deleted(let id) {
            var gone = FeedError.deleted(id).problem
            gone.headers.add("Cache-Control", PageCaching.gone(named: named))
            throw gone
        }
        guard let item else {
            var missing = FeedError.noSuchItem(id).problem
            missing.headers.add("Cache-Control", CacheControl.noCache)
            throw missing
        }
        return itemAnswer(item, base: base)
    }

    /// An item as JSON with its ETag (what `If-Match` names) and cross-origin headers,
    /// revalidated; its pictures under `base`.
    func itemAnswer(_ item: Item, status: Int = 200, base: String) -> HTTPResponse {
        let body = ResponseJSON.item(item, base: base)
        var response = HTTPResponse.json(body, status: status)
        response.headers.add("ETag", Self.itemETag(body))
        response.headers.add("Cache-Control", CacheControl.noCache)
        // Kept ready, so the headers the CORS middleware would add are in it already.
        cors.addSharedHeaders(to: &response)
        return response
    }

    /// The ETag of an item's JSON: the one `GET /api/items/{id}` sends and `If-Match` is checked against.
    static func itemETag(_ body: [UInt8]) -> String {
        EntityTag.strong(for: body)
    }
}

import InvalidInput
import PulldownFeed
import PulldownHTTP

/// Editing and deleting items, and the changes since a point in the feed's sequence.
extension API {
    // MARK: PATCH /api/items/{id}

    /// A JSON merge patch of the item (see `ItemPatch`), conditional on `If-Match`; answers
    /// later, once the change is committed and every cache has dropped what it touched.
    func editItem(_ request: HTTPRequest, _ responder: Responder) {
        guard let (id, named) = Self.itemTarget(request, responder) else { return }
        let patch: ItemPatch
        let base: String
        do {
            patch = try ItemPatch(request)
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        let precondition = request.headers["If-Match"]
        change(id, named: named, responder, .edit { item in
            try Self.check(precondition, against: item, base: base)
            return patch.isEmpty ? nil : try patch.apply(to: item)
        }) { [self] outcome in
            switch outcome {
            case .changed(let change):
                guard case .updated(let item) = change.kind else { return itemAnswer(Self.unexpected(change), base: base) }
                return Self.written(itemAnswer(item, base: base))
            case .unchanged(let item):
                return Self.written(itemAnswer(item, base: base))
            }
        }
    }

    // MARK: DELETE /api/items/{id}

    /// Deletes the item for good, conditional on `If-Match`: 204, then its URL answers 410.
    func deleteItem(_ request: HTTPRequest, _ responder: Responder) {
        guard let (id, named) = Self.itemTarget(request, responder) else { return }
        let base: String
        do {
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        let precondition = request.headers["If-Match"]
        change(id, named: named, responder, .delete { item in try Self.check(precondition, against: item, base: base) }) { _ in
            Self.written(HTTPResponse(status: 204))
        }
    }

    /// Runs `itemChange` on item `id` once the feed its URL names (if any) is the current one;
    /// sends `answer`'s response for what it did, or the problem it met.
    private func change(_ id: Int64, named: FeedID?, _ responder: Responder, _ itemChange: ItemChange,
                        answer: @escaping @Sendable (ChangeOutcome) -> HTTPResponse) {
        let submit: @Sendable () -> Void = { [feed] in
            feed.change(id, itemChange) { result in
                responder.send(Self.answer { answer(try result.get()) })
            }
        }
        guard let named else { return submit() }
        feed.withCurrentState { state in
            do {
                guard try state.get().id == named else { throw Self.feedChanged }
            } catch {
                return responder.send(HTTPResponse(answering: error))
            }
            submit()
        }
    }

    /// `If-Match` (RFC 9110, 13.1.1) against the item as stored: a 412 when it names none of
    /// its current tag, as sent under `base`. Checked inside the write, so no other change can
    /// come between.
    private static func check(_ precondition: String?, against item: Item, base: String) throws(Problem) {
        guard let precondition else { return }
        guard EntityTag.matches(ifMatch: precondition, etag: itemETag(ResponseJSON.item(item, base: base))) else {
            throw Problem(status: 412, title: "Precondition Failed",
                          detail: "The item changed since the version If-Match names; fetch it again and retry.")
        }
    }

    /// The answer to a write: for this request only, never kept.
    private static func written(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Cache-Control", CacheControl.noStore)
        return response
    }

    private static func unexpected(_ change: Change) -> Item {
        preconditionFailure("an edit answered with \(change)")
    }

    // MARK: GET /api/changes

    /// The edits and deletions after `since`, oldest first (`Feed.changes(since:limit:)`), with a
    /// `Link` to the next batch; a `since` older than the log keeps is a 410.
    func changes(_ request: HTTPRequest) -> HTTPResponse {
        var reader = QueryReader(request.query)
        let since = reader.integer("since", in: 0...Int64.max)
        let limit = reader.integer("limit", in: 1...Int64(Feed.maxChangesListed)).map(Int.init) ?? Self.changesLimit
        let named = reader.feedID()
        if since == nil && !reader.invalid.contains("since") { reader.invalid.add("since", InvalidParameters.Reason.required) }
        return Self.answer {
            guard let since, reader.invalid.all.isEmpty else { throw reader.invalid.problem("The query has invalid parameters.") }
            let base = try baseURL.require(request)
            let id = try feed.feedID()
            if let named, named != id { throw Self.feedChanged }
            let list = try feed.changes(since: since, limit: limit)
            let body = ResponseJSON.changes(list, feed: id, base: base)
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", EntityTag.strong(for: body))
            response.headers.add("Cache-Control", CacheControl.noCache)
            if list.hasMore {
                response.headers.add("Link", "<\(base)/api/changes?since=\(list.sequence)&limit=\(limit)&feed=\(id)>; rel=\"next\"")
            }
            return response.conditional(for: request)
        }
    }

    /// Changes in one answer when the request gives no limit.
    static let changesLimit = 100
}

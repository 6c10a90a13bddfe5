import InvalidInput
import PulldownFeed
import PulldownHTTP

/// What is kept per session: a refresh stamps it, `/api/session` reads it.
extension API {
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
        let parsed: (after: Int64?, changes: Int64?, limit: Int)
        let base: String
        do {
            parsed = try Self.refreshParameters(request, pageSize: pageSize)
            base = try baseURL.require(request)
        } catch {
            return send(error.response)
        }
        feed.refresh(session: session.id, after: parsed.after, changes: parsed.changes, limit: parsed.limit) { result in
            send(Self.answer {
                var response = HTTPResponse.json(ResponseJSON.refresh(try result.get(), base: base))
                response.headers.add("Cache-Control", CacheControl.noStore)
                return response
            })
        }
    }

    /// The body of a refresh: optional `after`, `changes` (where the client's edits and
    /// deletions start, as a page's `changes` said) and `limit`, nothing else.
    static func refreshParameters(_ request: HTTPRequest, pageSize: Int) throws(Problem) -> (after: Int64?, changes: Int64?, limit: Int) {
        let body = try JSONBody(request, emptyAllowed: true)
        var invalid = InvalidParameters()
        body.rejectUnknown(["after", "changes", "limit"], into: &invalid)
        let after = invalid.take(body.integer("after", in: 0...Int64.max, nullable: true))
        let changes = invalid.take(body.integer("changes", in: 0...Int64.max, nullable: true))
        let limit = invalid.take(body.integer("limit", in: 1...Int64(Feed.maxPageSize), nullable: true))
        try invalid.check("Some fields are invalid.")
        return (after, changes, limit.map(Int.init) ?? pageSize)
    }

    // MARK: GET /api/session

    func session(_ request: HTTPRequest) -> HTTPResponse {
        let session = sessions.resolve(request)
        var response = Self.answer {
            // A new session has nothing stored; reading never creates a row.
            let state = session.isNew ? nil : try feed.session(session.id)
            var response = HTTPResponse.json(ResponseJSON.session(state))
            response.headers.add("Cache-Control", CacheControl.noStore)
            return response
        }
        sessions.stamp(&response, with: session)
        return response
    }
}

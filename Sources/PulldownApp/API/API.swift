import Foundation
import PulldownFeed
import PulldownHTTP

/// The JSON API: each endpoint turns a request into feed calls and the result into JSON.
struct API: Sendable {
    let feed: Feed
    let sessions: SessionResolver
    let pageSize: Int
    /// Where the URLs in answers begin.
    var baseURL = BaseURL()
    /// The cross-origin headers every answer carries, kept in the answers prepared here too.
    var cors = CORS()
    /// The newest page for each page size and base URL, ready to send until the feed's revision
    /// moves; a few megabytes at most, whatever `Host` headers arrive.
    let newestPages = RevisionCache<NewestPageKey, UInt64, HTTPResponse>(budget: 8 << 20, cost: { 2 * $0.body.count + 512 })
    /// Pages whose places never change, and items, ready to send until a change touches them
    /// (see `PageCaching`).
    var pages = ValidatedPageCache(bytes: Configuration().pageCacheBytes)
    /// The demo knobs paging reads (`PagePlan`): short pages, expiring cursors; nil: none.
    var demo: DemoControl?

    struct NewestPageKey: Hashable {
        let base: BaseURL.Key
        let limit: Int
    }

    /// The API's routes, added to the server's one router; editing and deleting an item go
    /// through `writeAccess` first (the demo token beyond loopback, `DemoAccess`).
    func addRoutes(to router: inout Router, openAPI: HTTPResponse, writeAccess: any HTTPMiddleware) {
        router.add("GET", "/api/items", answeringLater: { request, responder in self.items(request, responder) })
        router.add("POST", "/api/items", answeringLater: { request, responder in self.addItem(request, responder) })
        router.add("GET", "/api/items/{id}", answeringLater: { request, responder in self.item(request, responder) })
        router.add("PATCH", "/api/items/{id}", answeringLater: { request, responder in
            writeAccess.handle(request, responder, next: self.editItem)
        })
        router.add("DELETE", "/api/items/{id}", answeringLater: { request, responder in
            writeAccess.handle(request, responder, next: self.deleteItem)
        })
        router.get("/api/changes") { request in self.changes(request) }
        router.add("POST", "/api/refresh", answeringLater: { request, responder in self.refresh(request, responder) })
        router.get("/api/session") { request in self.session(request) }
        router.get("/api/openapi.json") { request in openAPI.conditional(for: request) }
    }

    /// Any other path under /api/.
    static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        Problem.notFound("There is no API endpoint at \(request.path); see /api/openapi.json.").response
    }

    /// Runs `body`, turning what it throws into the answer that error knows (`HTTPResponseError`).
    static func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch {
            return HTTPResponse(answering: error)
        }
    }

    // MARK: GET /healthz

    func health() -> HTTPResponse {
        Self.answer {
            try feed.checkHealth()
            var response = HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8))
            response.headers.add("Cache-Control", CacheControl.noStore)
            return response
        }
    }
}

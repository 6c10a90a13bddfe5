import PulldownFeed
import PulldownHTTP

/// The network profiles under /api/demo (so with the demo's token rules): every client seen
/// recently, a profile for any of them, and the caller's own.
///
/// - `GET /api/demo/clients`: `{"clients": [client…], "maxProfiles": 1000}`
/// - `GET|PUT|DELETE /api/demo/clients/{client}/profile`: that client, by its id or token
/// - `GET|PUT|DELETE /api/demo/profile`: the caller's own session (issued now if it has none)
///
/// A client is `{"client", "lastSeen", "profile"}`; `PUT` takes `{"preset": "3g"}`, values, or
/// both (see `NetworkProfile+JSON`).
struct ProfileEndpoints: Sendable {
    let profiles: NetworkProfiles
    let sessions: SessionResolver

    func addRoutes(to router: inout Router) {
        router.get("/api/demo/clients") { _ in list() }
        let path = "/api/demo/clients/{client}/profile"
        for method in ["GET", "PUT", "DELETE"] {
            router.add(method, path) { request in
                API.answer { try change(request) { () throws(Problem) in try profiles.client(named: request.pathParameters["client"] ?? "") } }
            }
            router.add(method, "/api/demo/profile") { request in own(request) }
        }
    }

    private func list() -> HTTPResponse {
        var json = JSONWriter(capacity: 1024)
        json.beginObject()
        json.key("clients")
        json.beginArray()
        for client in profiles.clients() { NetworkProfiles.write(client, to: &json) }
        json.endArray()
        json.key("maxProfiles"); json.integer(ClientProfiles.maxProfiles)
        json.endObject()
        return DemoEndpoints.uncached(.json(json.bytes))
    }

    /// The caller's own session, as `/api/session` finds it: a new one is issued and set.
    private func own(_ request: HTTPRequest) -> HTTPResponse {
        let session = sessions.resolve(request)
        profiles.saw(token: session.token, id: session.id)
        var response = API.answer { try change(request) { session.id } }
        sessions.stamp(&response, with: session)
        return response
    }

    /// GET shows the client, PUT sets its profile, DELETE takes it off; each answers the client.
    /// A body is checked before the client is looked up, so a bad one is a 400 whoever it names.
    private func change(_ request: HTTPRequest, of client: () throws(Problem) -> SessionID) throws(Problem) -> HTTPResponse {
        let answer: ClientProfiles.Client
        switch request.method {
        case "PUT":
            let profile = try NetworkProfile(JSONBody(request, emptyAllowed: false), now: profiles.now)
            answer = try profiles.set(profile, for: client())
        case "DELETE":
            answer = try profiles.set(nil, for: client())
        default:
            answer = profiles.client(try client())
        }
        return DemoEndpoints.uncached(.json(NetworkProfiles.json(answer)))
    }
}

import Foundation

/// The demo knobs every other API request follows (`GET /api/demo`, and the stream's `demo`
/// events).
public struct DemoKnobs: Sendable, Hashable, Codable {
    /// Every API answer waits this long, in milliseconds.
    public var delayMs: Int
    /// A random 0 to this many milliseconds more.
    public var jitterMs: Int
    /// This fraction of API requests answers 503.
    public var failRate: Double
    /// Seconds between generated demo items, 0 for none.
    public var newItemsEvery: Double
}

/// The demo API (`/api/demo…`): steer a running server to show loading, errors and new items.
///
/// On loopback it is open; beyond it every request needs the presenter's token (`--demo-token`,
/// else printed at start). Get one from ``PulldownClient/demo(token:)``.
public struct DemoControl: Sendable {
    /// The requests the server can be told to fail (`POST /api/demo/faults`).
    public enum FaultKind: String, Sendable, Hashable {
        /// `POST /api/refresh`
        case refresh
        /// `GET /api/items`
        case page
        /// `POST /api/items`
        case post
        /// `GET /api/events`
        case events
    }

    let client: PulldownClient
    let token: String?

    /// The knobs as they are now.
    public func knobs() async throws -> DemoKnobs {
        try await send("api/demo").decode(DemoKnobs.self)
    }

    /// Sets the knobs given (a merge patch); the others keep their values.
    @discardableResult
    public func setKnobs(delayMs: Int? = nil, jitterMs: Int? = nil, failRate: Double? = nil,
                         newItemsEvery: Double? = nil) async throws -> DemoKnobs {
        var patch: [String: JSONValue] = [:]
        patch["delayMs"] = delayMs.map { .integer(Int64($0)) }
        patch["jitterMs"] = jitterMs.map { .integer(Int64($0)) }
        patch["failRate"] = failRate.map(JSONValue.number)
        patch["newItemsEvery"] = newItemsEvery.map(JSONValue.number)
        return try await send("api/demo", method: "PATCH", json: patch).decode(DemoKnobs.self)
    }

    /// The next `count` requests of `kind` fail with `status` (429, 500 or 503; 429 and 503 carry
    /// `Retry-After: 1`), then that kind behaves again.
    public func failNext(_ kind: FaultKind, status: Int = 503, count: Int = 1) async throws {
        let fault: [String: JSONValue] = ["on": .string(kind.rawValue), "status": .integer(Int64(status)),
                                          "count": .integer(Int64(count))]
        _ = try await send("api/demo/faults", method: "POST", json: fault)
    }

    /// Adds the next `count` items of the demo sequence now; returns them, newest first.
    @discardableResult
    public func addItems(count: Int = 1) async throws -> [Item] {
        try await send("api/demo/items", method: "POST", json: ["count": count]).decode(AddedItems.self).items
    }

    /// Starts the feed over, as `--reset` does: a new feed name, the seed's items again. Open
    /// streams get a ``LiveEvent/reset(newestID:)``. Returns the new feed's newest id.
    @discardableResult
    public func reset() async throws -> Int64? {
        try await send("api/demo/reset", method: "POST").decode(ResetAnswer.self).newestId
    }

    private func send(_ path: String, method: String = "GET", json: (some Encodable)? = Optional<Int>.none) async throws -> Answer {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return try await client.send(client.request(client.url(path), method: method, json: json, headers: headers))
    }

    private struct AddedItems: Decodable { let items: [Item] }
    private struct ResetAnswer: Decodable { let newestId: Int64? }
}

extension PulldownClient {
    /// The demo API, with the presenter's `token` when the server is beyond loopback.
    public func demo(token: String? = nil) -> DemoControl {
        DemoControl(client: self, token: token)
    }
}

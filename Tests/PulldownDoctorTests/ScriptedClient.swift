import Foundation
@testable import PulldownDoctor

/// A feed of items 1...newest, answered as the server answers: pages of `limit`, newest first;
/// `edits` are the numbers edits and deletions took, after the inserts of their time; `deleted`
/// items keep their places, left out of pages; with `shortPages` every page reads half its limit.
struct FakeFeed {
    var newest: Int64
    var limit = 10
    var id: UInt64 = 0xfeed
    var edits: [Int64] = []
    var deleted: Set<Int64> = []
    var shortPages = false

    /// The feed's sequence: the last number an insert, an edit or a deletion took.
    var sequence: Int64 { max(newest, edits.max() ?? 0) }

    func answer(_ ask: ObservedRequest.Ask) -> ObservedRequest.Answer {
        switch ask {
        case .page(.newest, let limit):
            return page(below: newest + 1, limit: limit)
        case .page(.before(let id), let limit):
            return page(below: id, limit: limit)
        case .page(.after(let id), let limit):
            let top = min(newest, id + Int64(limit))
            return .init(hasMore: newest > top, newestID: top > id ? top : nil, feed: self.id, changes: sequence)
        case .refresh(let after, let changes):
            let new = newest - (after ?? 0)
            // Without `changes` (and without a session that refreshed before), none are listed.
            let listed = changes.map { since in edits.contains { $0 > since } } ?? false
            return .init(gap: new > Int64(limit), newestID: new > 0 ? newest : nil, feed: self.id, changes: sequence,
                         listedChanges: listed)
        default:
            return .init()
        }
    }

    private func page(below id: Int64, limit: Int) -> ObservedRequest.Answer {
        let read = Int64(shortPages && limit >= 2 ? (limit + 1) / 2 : limit)
        let top = min(id - 1, newest), hasMore = top - read > 0
        let items = top > 0 ? (max(1, top - read + 1)...top).reversed().filter { !deleted.contains($0) } : []
        return .init(hasMore: hasMore, newestID: items.first, nextBefore: hasMore ? top - read + 1 : nil,
                     feed: self.id, changes: sequence, items: hasMore ? items.count : nil)
    }
}

/// A client whose requests are written out one by one, on a clock of its own: each starts
/// `pause` seconds after the last one ended and takes `takes` seconds. What the doctor said about
/// each is kept in `fired`.
struct ScriptedClient {
    var feed: FakeFeed
    var examination = Examination()
    /// Seconds since the script began.
    var now: TimeInterval = 0
    private(set) var fired: [String] = []

    init(feed: FakeFeed) {
        self.feed = feed
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Sends `ask` and returns the rule it broke, if any.
    @discardableResult
    mutating func send(_ ask: ObservedRequest.Ask, method: String = "GET", validator: Bool = false, status: Int? = nil,
                       retryAfter: Int? = nil, pause: TimeInterval = 0.01, takes: TimeInterval = 0.02) -> String? {
        let started = now + pause
        now = started + takes
        return take(request(ask, method: method, validator: validator, status: status, retryAfter: retryAfter,
                            from: started, to: now))
    }

    /// Sends two asks at once; the second is answered first.
    mutating func sendTogether(_ first: ObservedRequest.Ask, _ second: ObservedRequest.Ask, pause: TimeInterval = 0.01) {
        let started = now + pause
        now = started + 0.1
        take(request(second, from: started + 0.01, to: started + 0.05))
        take(request(first, from: started, to: now))
    }

    mutating func wait(_ seconds: TimeInterval) {
        now += seconds
    }

    @discardableResult
    private mutating func take(_ request: ObservedRequest) -> String? {
        let name = examination.examine(request)?.rule.name
        if let name { fired.append(name) }
        return name
    }

    private func request(_ ask: ObservedRequest.Ask, method: String = "GET", validator: Bool = false, status: Int? = nil,
                         retryAfter: Int? = nil, from started: TimeInterval, to ended: TimeInterval) -> ObservedRequest {
        let status = status ?? (validator && ask == .page(.newest, limit: feed.limit) ? 304 : 200)
        var answer = status == 200 ? feed.answer(ask) : ObservedRequest.Answer()
        answer.retryAfter = retryAfter
        let method = if case .refresh = ask { "POST" } else { method }
        return ObservedRequest(method: method, target: Self.target(ask), ask: ask, sentValidator: validator, status: status,
                               answer: answer, started: Self.start + started, ended: Self.start + ended)
    }

    private static func target(_ ask: ObservedRequest.Ask) -> String {
        switch ask {
        case .page(.newest, let limit): "/api/items?limit=\(limit)"
        case .page(.before(let id), let limit): "/api/items?limit=\(limit)&before=\(id)"
        case .page(.after(let id), let limit): "/api/items?limit=\(limit)&after=\(id)"
        case .item(let id): "/api/items/\(id)"
        case .refresh: "/api/refresh"
        case .stream(_, let after): "/api/events" + (after.map { "?after=\($0)" } ?? "")
        case .other: "/api/session"
        }
    }
}

extension ObservedRequest.Ask {
    static let newest = ObservedRequest.Ask.page(.newest, limit: 10)
    static func before(_ id: Int64, limit: Int = 10) -> Self { .page(.before(id), limit: limit) }
    static func after(_ id: Int64, limit: Int = 10) -> Self { .page(.after(id), limit: limit) }
    static let stream = ObservedRequest.Ask.stream(lastEventID: nil, after: nil)
}

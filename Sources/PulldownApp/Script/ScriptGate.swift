import Foundation
import PulldownFeed
import PulldownHTTP
import Synchronization

/// What the script (or `PUT /api/demo/rate-limit`) holds over the API, in front of the demo
/// knobs: the whole API offline for a while (503, `tag:pulldown,2026:offline`), a rate limit
/// (`RateLimitWindow`), both read on the demo clock. It also tells the player of each refresh
/// answered, before the client hears the answer, so a step cued on it is in place for the next.
/// `/api/demo` is a scope of its own: the steering is never limited.
final class ScriptGate: HTTPMiddleware, Sendable {
    private struct Holding {
        var limit: RateLimitWindow?
        var offlineUntil: Date?
    }

    private let clock: any FeedClock
    private let holding = Mutex(Holding())
    /// Called after each `POST /api/refresh` is answered, whatever the answer.
    private let refreshed = Mutex<@Sendable () -> Void>({})
    /// Whether a script plays, so refreshes count: only then is a refresh's answer held for the
    /// player (under load, holding every refresh for it cost the p99 of mixed traffic 3x).
    private let countingRefreshes = Atomic<Bool>(false)

    init(clock: any FeedClock) {
        self.clock = clock
    }

    /// Calls `observer` after each `POST /api/refresh` is answered, before the client hears it,
    /// while `countRefreshes(true)` holds.
    func onRefresh(_ observer: @escaping @Sendable () -> Void) {
        refreshed.withLock { $0 = observer }
    }

    func countRefreshes(_ counting: Bool) {
        countingRefreshes.store(counting, ordering: .releasing)
    }

    /// Holds `policy` from now, its first window starting now; nil lifts the limit.
    func setRateLimit(_ policy: RateLimitWindow.Policy?) {
        let now = clock.now()
        holding.withLock { $0.limit = policy.map { RateLimitWindow($0, from: now) } }
    }

    var rateLimit: RateLimitWindow? { holding.withLock { $0.limit } }

    /// Every API answer a 503 for `seconds` from now.
    func goOffline(for seconds: Double) {
        let until = clock.now().addingTimeInterval(seconds)
        holding.withLock { $0.offlineUntil = until }
    }

    /// When the offline time ends; nil when not offline.
    var offlineUntil: Date? {
        let now = clock.now()
        return holding.withLock { $0.offlineUntil.flatMap { $0 > now ? $0 : nil } }
    }

    /// Lifts both (a script loaded or restarted starts clean).
    func clear() {
        holding.withLock { $0 = Holding() }
    }

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        var responder = responder
        if countingRefreshes.load(ordering: .acquiring), request.method == "POST", request.path == "/api/refresh" {
            let observer = refreshed.withLock { $0 }
            responder = Responder { [responder] response in
                observer()
                responder.send(response)
            }
        }
        let now = clock.now()
        let (offline, decision, limit) = holding.withLock { holding -> (Date?, RateLimitWindow.Decision?, RateLimitWindow?) in
            if let until = holding.offlineUntil, until > now { return (until, nil, nil) }
            return (nil, holding.limit?.admit(at: now), holding.limit)
        }
        if let offline {
            return responder.send(ProfileThrottle.offline(until: offline, now: now, reason: "the demo script has the API offline"))
        }
        guard let decision, let limit else { return next(request, responder) }
        if case .refused(let reset) = decision { return responder.send(limit.refusal(reset: reset)) }
        let fields = limit.headers(for: decision)
        next(request, Responder { [responder] response in
            var response = response
            for (name, value) in fields { response.headers.add(name, value) }
            responder.send(response)
        })
    }
}

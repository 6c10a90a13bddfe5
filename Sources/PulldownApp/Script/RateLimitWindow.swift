import Foundation
import InvalidInput
import PulldownHTTP

/// A fixed-window rate limit: at most `limit` requests in each window of `window` seconds, the
/// windows aligned to when the limit was set, so the count starts again exactly when one ends.
/// A pure value; `ScriptGate` holds it and reads the demo clock.
///
/// Its fields follow draft-ietf-httpapi-ratelimit-headers-10 (September 2025): every answer
/// carries `RateLimit-Policy: "demo";q=LIMIT;w=WINDOW` and `RateLimit: "demo";r=REMAINING;t=RESET`,
/// and a refused one 429 with `Retry-After: RESET`. RESET is the seconds to the window's end,
/// rounded up, so a client that waits that long is always let in.
struct RateLimitWindow: Sendable, Equatable {
    struct Policy: Sendable, Equatable {
        var limit: Int
        /// Whole seconds.
        var window: Double
    }

    static let maxLimit: Int64 = 1_000_000
    static let windowRange: ClosedRange<Double> = 1...86_400
    /// The policy's name in the fields.
    static let name = "demo"

    let policy: Policy
    /// When it was set: the first window starts here.
    let start: Date
    private var window: Int64 = 0
    private var used = 0

    init(_ policy: Policy, from start: Date) {
        self.policy = policy
        self.start = start
    }

    enum Decision: Equatable {
        case allowed(remaining: Int, reset: Int)
        case refused(reset: Int)
    }

    /// Counts a request arriving at `now` in its window, if there is room.
    mutating func admit(at now: Date) -> Decision {
        let elapsed = max(0, now.timeIntervalSince(start))
        let current = Int64((elapsed / policy.window).rounded(.down))
        if current != window {
            window = current
            used = 0
        }
        let end = Double(current + 1) * policy.window
        let reset = max(1, Int((end - elapsed).rounded(.up)))
        guard used < policy.limit else { return .refused(reset: reset) }
        used += 1
        return .allowed(remaining: policy.limit - used, reset: reset)
    }

    /// The fields every answer carries while the limit holds.
    func headers(for decision: Decision) -> [(String, String)] {
        let (remaining, reset): (Int, Int)
        switch decision {
        case .allowed(let left, let seconds): (remaining, reset) = (left, seconds)
        case .refused(let seconds): (remaining, reset) = (0, seconds)
        }
        return [("RateLimit-Policy", "\"\(Self.name)\";q=\(policy.limit);w=\(Int(policy.window))"),
                ("RateLimit", "\"\(Self.name)\";r=\(remaining);t=\(reset)")]
    }

    /// The answer to a request beyond the limit.
    func refusal(reset: Int) -> HTTPResponse {
        var headers = HTTPHeaders(headers(for: .refused(reset: reset)))
        headers.add("Retry-After", String(reset))
        return Problem(status: 429, title: "Too Many Requests",
                       detail: "The demo's rate limit of \(policy.limit) requests every \(Int(policy.window)) s is used up; "
                           + "try again in \(reset) s. Nothing was done.",
                       headers: headers).response
    }

    /// `{"limit": N, "window": "10s"}` (whole seconds) of a body or a script's step; a limit of 0
    /// lifts it (nil). Problems are noted in `invalid`, and then the answer means nothing.
    static func policy(from body: JSONBody, into invalid: inout InvalidParameters) -> Policy? {
        let limit = invalid.required("limit", body.integer("limit", in: 0...maxLimit))
        let window = invalid.take(ScriptDuration.read(body, "window", in: windowRange))
        if let window, window != window.rounded() { invalid.add("window", "must be whole seconds") }
        if let limit, limit > 0, window == nil, !invalid.contains("window") { invalid.add("window", InvalidParameters.Reason.required) }
        guard let limit, limit > 0, let window else { return nil }
        return Policy(limit: Int(limit), window: window)
    }
}

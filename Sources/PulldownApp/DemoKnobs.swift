import Dispatch
import PulldownHTTP

/// What front-end developers ask of a fake backend: slow answers and failures on demand.
///
/// Middleware in front of the API. A delayed answer holds no server thread: the connection is
/// suspended and the request goes on on a Dispatch queue when the time is up. An injected
/// failure is decided before anything runs, so it never changes anything.
struct DemoKnobs: HTTPMiddleware {
    var delayMilliseconds = 0
    var jitterMilliseconds = 0
    var failRate = 0.0

    static let failableStatuses: [Int: String] = [
        429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
    ]

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        let plan: Plan
        do {
            plan = try self.plan(for: request)
        } catch {
            return responder.send(error.response)
        }
        let answer: @Sendable () -> Void = {
            if let failure = plan.failure {
                responder.send(failure.response)
            } else {
                next(request, responder)
            }
        }
        if plan.delayMilliseconds > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(plan.delayMilliseconds), execute: answer)
        } else {
            answer()
        }
    }

    struct Plan {
        let delayMilliseconds: Int
        let failure: Problem?
    }

    /// Reads `_delay` and `_fail`, rolls the fail rate; throws a 400 for a bad knob value.
    func plan(for request: HTTPRequest) throws(Problem) -> Plan {
        var delay = delayMilliseconds + (jitterMilliseconds > 0 ? Int.random(in: 0...jitterMilliseconds) : 0)
        if let text = request.query.first("_delay") {
            guard let value = Self.integer(text), (0...Configuration.maxRequestDelayMilliseconds).contains(value) else {
                throw Problem.badRequest("_delay must be a number of milliseconds from 0 to \(Configuration.maxRequestDelayMilliseconds).",
                                         invalidParams: [.init(name: "_delay", reason: "must be an integer from 0 to \(Configuration.maxRequestDelayMilliseconds)")])
            }
            delay = value
        }
        var failure: Problem?
        if let text = request.query.first("_fail") {
            guard let status = Self.integer(text), let title = Self.failableStatuses[status] else {
                throw Problem.badRequest("_fail must be 429, 500 or 503.",
                                         invalidParams: [.init(name: "_fail", reason: "must be 429, 500 or 503")])
            }
            failure = Self.injected(status: status, title: title, reason: "the _fail parameter asked for it")
        } else if failRate > 0, Double.random(in: 0..<1) < failRate {
            failure = Self.injected(status: 503, title: "Service Unavailable", reason: "--fail-rate is \(failRate)")
        }
        return Plan(delayMilliseconds: delay, failure: failure)
    }

    private static func integer(_ text: String) -> Int? {
        DecimalDigits.parse(text).flatMap { Int(exactly: $0) }
    }

    private static func injected(status: Int, title: String, reason: String) -> Problem {
        var headers = HTTPHeaders()
        if status != 500 { headers.add("Retry-After", "1") }
        return Problem(status: status, title: title, detail: "Injected failure: \(reason). Nothing was changed.",
                       headers: headers)
    }
}

import Dispatch
import PulldownFeed
import PulldownHTTP

/// What front-end developers ask of a fake backend: slow answers, failures on demand, new items
/// now and then, and items edited and deleted under the reader. One value: start-up gives its first state, `GET /api/demo` shows it and
/// `PATCH /api/demo` changes it while the server runs (see `DemoControl`).
public struct DemoKnobs: Sendable, Equatable {
    public var delayMilliseconds = 0
    public var jitterMilliseconds = 0
    public var failRate = 0.0
    /// Seconds between generated demo items; 0 turns the generator off.
    public var newItemsEvery: Double = FeedConfiguration().newItemsEvery
    /// Items the demo edits a minute (`DemoChurn`), and deletes; 0 for none.
    public var editsPerMinute: Double = 0
    public var deletesPerMinute: Double = 0

    public init() {}

    init(delayMilliseconds: Int = 0, jitterMilliseconds: Int = 0, failRate: Double = 0,
         newItemsEvery: Double = FeedConfiguration().newItemsEvery, editsPerMinute: Double = 0, deletesPerMinute: Double = 0) {
        self.delayMilliseconds = delayMilliseconds
        self.jitterMilliseconds = jitterMilliseconds
        self.failRate = failRate
        self.newItemsEvery = newItemsEvery
        self.editsPerMinute = editsPerMinute
        self.deletesPerMinute = deletesPerMinute
    }

    /// The values each knob may take, from the command line and from `PATCH /api/demo` alike.
    static let delayRange: ClosedRange<Int> = 0...600_000
    static let failRateRange: ClosedRange<Double> = 0...1
    static let newItemsEveryRange: ClosedRange<Double> = 0...86_400
    /// Up to a thousand a second.
    static let churnRange: ClosedRange<Double> = 0...60_000

    /// The largest `_delay`, so a typo cannot hold a connection for an hour.
    static let maxDelayMilliseconds = 10_000
    static let failableStatuses: [Int: String] = [
        429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
    ]
}

/// The knobs as middleware in front of the API. A delayed answer holds no server thread: the
/// connection is suspended and the request goes on on a Dispatch queue when the time is up. An
/// injected failure is decided before anything runs, so it never changes anything. Each request
/// reads the knobs as they are when it arrives.
struct DemoKnobsMiddleware: HTTPMiddleware {
    let control: DemoControl

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        let plan: DemoKnobs.Plan
        do {
            let target = FaultQueue.Target(method: request.method, path: request.path)
            plan = try control.knobs.plan(for: request, takeFault: { target.flatMap(control.takeFault) })
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
}

extension DemoKnobs {
    struct Plan {
        let delayMilliseconds: Int
        let failure: Problem?
    }

    /// Reads `_delay` and `_fail` (the first of each, if repeated), then a queued fault (from
    /// `takeFault`, asked only once the query is valid, so a 400 uses up no fault), then rolls
    /// the fail rate; throws a 400 naming every bad knob.
    func plan(for request: HTTPRequest, takeFault: () -> FaultQueue.Fault? = { nil }) throws(Problem) -> Plan {
        var reader = QueryReader(request.query)
        let delayParameter = reader.integer("_delay", in: 0...Int64(Self.maxDelayMilliseconds), repeatable: true)
        let failParameter = reader.integer("_fail", oneOf: Self.failableStatuses.keys.sorted(), repeatable: true)
        try reader.invalid.check("The query has invalid parameters.")
        let delay = delayParameter.map(Int.init)
            ?? delayMilliseconds + (jitterMilliseconds > 0 ? Int.random(in: 0...jitterMilliseconds) : 0)
        var failure: Problem?
        if let fault = takeFault() {
            failure = Self.injected(status: fault.status, title: Self.failableStatuses[fault.status]!,
                                    reason: "a fault queued with POST /api/demo/faults", retryAfter: fault.retryAfter)
        } else if let status = failParameter {
            failure = Self.injected(status: status, title: Self.failableStatuses[status]!, reason: "the _fail parameter asked for it")
        } else if failRate > 0, Double.random(in: 0..<1) < failRate {
            failure = Self.injected(status: 503, title: "Service Unavailable", reason: "the fail rate is \(failRate)")
        }
        return Plan(delayMilliseconds: delay, failure: failure)
    }

    private static func injected(status: Int, title: String, reason: String, retryAfter: Int? = nil) -> Problem {
        var headers = HTTPHeaders()
        if let retryAfter {
            headers.add("Retry-After", String(retryAfter))
        } else if status != 500 {
            headers.add("Retry-After", "1")
        }
        return Problem(status: status, title: title, detail: "Injected failure: \(reason). Nothing was changed.",
                       headers: headers)
    }
}

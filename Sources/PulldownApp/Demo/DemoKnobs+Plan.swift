import PulldownHTTP

extension DemoKnobs {
    struct Plan {
        let delayMilliseconds: Int
        let failure: Problem?
    }

    /// Reads `_delay` and `_fail` (the first of each, if repeated), then a queued fault (from
    /// `takeFault`, asked only once the query is valid, so a 400 uses up no fault), then rolls
    /// the fail rate; throws a 400 naming every bad knob. The jitter and the fail rate draw from
    /// `random` (the system's when the server runs; tests pass their own, so they are exact).
    func plan(for request: HTTPRequest, takeFault: () -> FaultQueue.Fault? = { nil }) throws(Problem) -> Plan {
        var random = SystemRandomNumberGenerator()
        return try plan(for: request, takeFault: takeFault, random: &random)
    }

    func plan(for request: HTTPRequest, takeFault: () -> FaultQueue.Fault? = { nil },
              random: inout some RandomNumberGenerator) throws(Problem) -> Plan {
        var reader = QueryReader(request.query)
        let delayParameter = reader.integer("_delay", in: 0...Int64(Self.maxDelayMilliseconds), repeatable: true)
        let failParameter = reader.integer("_fail", oneOf: Self.failableStatuses.keys.sorted(), repeatable: true)
        try reader.invalid.check("The query has invalid parameters.")
        let delay = delayParameter.map(Int.init)
            ?? delayMilliseconds + (jitterMilliseconds > 0 ? Int.random(in: 0...jitterMilliseconds, using: &random) : 0)
        var failure: Problem?
        if let fault = takeFault() {
            failure = Self.injected(status: fault.status, reason: "a fault queued with POST /api/demo/faults",
                                    retryAfter: fault.retryAfter)
        } else if let status = failParameter {
            failure = Self.injected(status: status, reason: "the _fail parameter asked for it")
        } else if failRate > 0, Double.random(in: 0..<1, using: &random) < failRate {
            failure = Self.injected(status: 503, reason: "the fail rate is \(failRate)")
        }
        return Plan(delayMilliseconds: delay, failure: failure)
    }

    /// `status` is one of `failableStatuses` (the query and the fault queue accept no other).
    /// A fault's own `retryAfter` (seconds) is said; otherwise 1, but for a 500.
    private static func injected(status: Int, reason: String, retryAfter: Int? = nil) -> Problem {
        let title = failableStatuses[status] ?? "Injected Failure"
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

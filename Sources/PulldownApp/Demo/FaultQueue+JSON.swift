import InvalidInput
import PulldownHTTP

/// The faults as JSON, and a fault read from the body of `POST /api/demo/faults`.
extension FaultQueue {
    static let maxCount: Int64 = 1000

    static func json(_ pending: [Fault]) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + 48 * pending.count)
        json.beginObject()
        json.key("pending")
        json.beginArray()
        for fault in pending {
            json.beginObject()
            fields(of: fault, into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `fault`'s fields, as a fault is posted and a script's `fail` step is written.
    static func fields(of fault: Fault, into json: inout JSONWriter) {
        json.key("on"); json.string(fault.on.rawValue)
        json.key("status"); json.integer(fault.status)
        json.key("count"); json.integer(fault.count)
        if let retryAfter = fault.retryAfter { json.key("retryAfter"); json.integer(retryAfter) }
    }

    /// `{"on": target, "status": 429 | 500 | 503, "count": N, "retryAfter": S}`: `on` is
    /// required, `status` is 503 and `count` 1 when left out. Throws one 400 naming every bad field.
    static func fault(from body: JSONBody) throws(Problem) -> Fault {
        var invalid = InvalidParameters()
        body.rejectUnknown(["on", "status", "count", "retryAfter"], into: &invalid)
        guard let fault = fault(from: body, into: &invalid), invalid.all.isEmpty else {
            throw invalid.problem("Some fields are invalid; no fault was queued.")
        }
        return fault
    }

    /// The fault's fields of `body` (a script's `fail` step reads them too); nil with the
    /// problems noted. `retryAfter` is whole seconds, or a duration (`"5s"`).
    static func fault(from body: JSONBody, into invalid: inout InvalidParameters) -> Fault? {
        let on = invalid.required("on", body.string("on", oneOf: Target.allCases.map(\.rawValue))).flatMap(Target.init(rawValue:))
        let status = invalid.take(body.integer("status", oneOf: DemoKnobs.failableStatuses.keys.sorted()))
        let count = invalid.take(body.integer("count", in: 1...maxCount))
        let retryAfter = invalid.take(ScriptDuration.read(body, "retryAfter", in: 0...86_400))
        guard let on, invalid.all.isEmpty else { return nil }
        return Fault(on: on, status: status ?? 503, count: count.map { Int($0) } ?? 1,
                     retryAfter: retryAfter.map { Int($0.rounded(.up)) })
    }
}

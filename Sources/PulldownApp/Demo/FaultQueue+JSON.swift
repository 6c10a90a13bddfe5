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
            json.key("on"); json.string(fault.on.rawValue)
            json.key("status"); json.integer(fault.status)
            json.key("count"); json.integer(fault.count)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `{"on": target, "status": 429 | 500 | 503, "count": N}`: `on` is required, `status` is
    /// 503 and `count` 1 when left out. Throws one 400 naming every bad field.
    static func fault(from body: JSONBody) throws(Problem) -> Fault {
        var invalid = InvalidParameters()
        body.rejectUnknown(["on", "status", "count"], into: &invalid)
        let on = invalid.take(body.string("on", oneOf: Target.allCases.map(\.rawValue)))
        if on == nil && !invalid.contains("on") { invalid.add("on", InvalidParameters.Reason.required) }
        let status = invalid.take(body.integer("status", oneOf: DemoKnobs.failableStatuses.keys.sorted()))
        let count = invalid.take(body.integer("count", in: 1...maxCount))
        try invalid.check("Some fields are invalid; no fault was queued.")
        // Past the check, `on` is given and one of the targets' names.
        return Fault(on: Target(rawValue: on!)!, status: status ?? 503, count: count.map { Int($0) } ?? 1)
    }
}

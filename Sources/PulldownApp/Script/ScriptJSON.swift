import Foundation
import PulldownHTTP

/// The script's state as `GET /api/demo/script` answers it and `event: script` carries it.
enum ScriptJSON {
    static func status(_ state: ScriptState, now: Date, rateLimit: RateLimitWindow.Policy?, offlineUntil: Date?,
                       manualClock: Bool) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + 96 * state.script.steps.count)
        json.beginObject()
        json.key("state"); json.string(state.phase.rawValue)
        json.key("now"); json.string(Timestamp.iso8601(now, milliseconds: true))
        json.key("manualClock"); json.bool(manualClock)
        json.key("elapsed"); json.number(state.elapsed(at: now))
        json.key("refreshes"); json.integer(state.refreshes)
        json.key("label"); optional(state.label, &json)
        json.key("next")
        if let next = state.nextDue() {
            json.beginObject()
            json.key("step"); json.integer(next.index)
            json.key("at"); json.number(next.time)
            json.key("dueAt")
            if let date = state.nextDueDate() { json.string(Timestamp.iso8601(date, milliseconds: true)) } else { json.null() }
            json.endObject()
        } else {
            json.null()
        }
        json.key("rateLimit")
        if let rateLimit {
            json.beginObject()
            json.key("limit"); json.integer(rateLimit.limit)
            json.key("window"); json.number(rateLimit.window)
            json.endObject()
        } else {
            json.null()
        }
        json.key("offlineUntil"); optional(offlineUntil.map { Timestamp.iso8601($0, milliseconds: true) }, &json)
        json.key("steps")
        json.beginArray()
        for (index, step) in state.script.steps.enumerated() {
            json.beginObject()
            json.key("name"); optional(step.name, &json)
            json.key("do"); json.string(step.action.verb)
            json.key("at")
            if case .at(let time) = step.trigger { json.number(time) } else { json.null() }
            json.key("after")
            switch step.trigger {
            case .at: json.null()
            case .afterRefreshes(let count):
                json.beginObject(); json.key("refreshes"); json.integer(count); json.endObject()
            case .afterStep(let name):
                json.beginObject(); json.key("step"); json.string(name); json.endObject()
            }
            json.key("times"); json.integer(step.times)
            json.key("runs"); json.integer(index < state.runs.count ? state.runs[index] : 0)
            fields(of: step.action, into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// What `action` does, in the fields the script wrote it with (`count`, `knobs`, `for`…), so
    /// that a step reads as it was written.
    private static func fields(of action: DemoScript.Action, into json: inout JSONWriter) {
        switch action {
        case .addItems(let count):
            json.key("count"); json.integer(count)
        case .churn(let edits, let deletes):
            json.key("edits"); json.integer(edits)
            json.key("deletes"); json.integer(deletes)
        case .fail(let fault):
            FaultQueue.fields(of: fault, into: &json)
        case .set(let patch):
            json.key("knobs")
            json.beginObject()
            for (name, change) in patch.changes.sorted(by: { $0.key < $1.key }) {
                json.key(name)
                if case .set(let value) = change { json.number(value) } else { json.null() }
            }
            json.endObject()
        case .dropStreams:
            break
        case .rateLimit(let policy):
            json.key("limit"); json.integer(policy?.limit ?? 0)
            if let policy { json.key("window"); json.number(policy.window) }
        case .offline(let seconds):
            json.key("for"); json.number(seconds)
        case .label(let text):
            json.key("text"); json.string(text)
        }
    }

    private static func optional(_ value: String?, _ json: inout JSONWriter) {
        if let value { json.string(value) } else { json.null() }
    }
}

import CJansson
import InvalidInput
import PulldownHTTP

/// A script read from JSON with Jansson, whole or not at all: the first bad field found is
/// refused with one line naming the step and the field (`ScriptError`), for the command line
/// and for `PUT /api/demo/script` alike.
extension DemoScript {
    static let maxSteps = 1000
    static let maxLabel = 200
    /// A script plays for a day at most; a step repeats at most this often.
    static let timeRange: ClosedRange<Double> = 0...86_400
    static let maxTimes: Int64 = 1000
    /// A repeat's shortest interval: a thousand runs take at least 100 s of play.
    static let everyRange: ClosedRange<Double> = 0.1...86_400
    static let verbs = ["addItems", "churn", "fail", "set", "dropStreams", "rateLimit", "offline", "label"]

    /// Parses the JSON text of a script.
    static func parse(_ bytes: [UInt8]) throws(ScriptError) -> DemoScript {
        var error = json_error_t()
        let parsed = bytes.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_REJECT_DUPLICATES), &error)
        }
        guard let parsed else {
            throw ScriptError(field: nil, reason: "is not well-formed JSON: \(error.message) (line \(error.line), column \(error.column))")
        }
        defer { json_decref(parsed) }
        guard let root = JSONBody(object: parsed) else { throw ScriptError(field: nil, reason: "must be a JSON object") }
        var invalid = InvalidParameters()
        root.rejectUnknown(["steps"], into: &invalid)
        let elements = invalid.take(root.array("steps"))
        if let first = invalid.all.first { throw ScriptError(field: first.name, reason: first.reason) }
        guard let elements else { throw ScriptError(field: "steps", reason: InvalidParameters.Reason.required) }
        guard elements.count <= maxSteps else { throw ScriptError(field: "steps", reason: "must hold at most \(maxSteps) steps") }
        var steps: [Step] = []
        for (index, element) in elements.enumerated() {
            guard let body = JSONBody(object: element) else {
                throw ScriptError(index: index, field: nil, reason: "must be a JSON object")
            }
            steps.append(try step(body, index: index))
        }
        try checkNames(steps)
        return DemoScript(steps: steps)
    }

    /// Names are unique, and each `after: {"step": …}` names another step.
    private static func checkNames(_ steps: [Step]) throws(ScriptError) {
        var seen: Set<String> = []
        for (index, step) in steps.enumerated() {
            if let name = step.name, !seen.insert(name).inserted {
                throw ScriptError(index: index, name: name, field: "name", reason: "is the name of an earlier step")
            }
        }
        for (index, step) in steps.enumerated() {
            guard case .afterStep(let cue) = step.trigger else { continue }
            if !seen.contains(cue) || cue == step.name {
                throw ScriptError(index: index, name: step.name, field: "after.step", reason: "must name another step of the script")
            }
        }
    }

    private static func step(_ body: JSONBody, index: Int) throws(ScriptError) -> Step {
        // The name first, so every later refusal can say it.
        var invalid = InvalidParameters()
        let name = invalid.take(body.string("name"))
        let refusal = StepRefusal(index: index, name: name)
        if name == "" { invalid.add("name", "must not be empty") }
        try refusal.check(invalid)
        let verb = try refusal.value(invalid.required("do", body.string("do", oneOf: verbs)), "do", invalid)
        body.rejectUnknown(["name", "do", "at", "after", "repeat"] + fields(of: verb), into: &invalid)
        try refusal.check(invalid)
        let trigger = try trigger(body, refusal: refusal)
        var step = Step(name: name, trigger: trigger, action: try action(verb, body, refusal: refusal))
        if let repeated = invalid.take(body.object("repeat")) {
            repeated.rejectUnknown(["times", "every"], into: &invalid)
            let times = invalid.required("times", repeated.integer("times", in: 1...maxTimes))
            let every = invalid.take(ScriptDuration.read(repeated, "every", in: everyRange))
            if case .at = trigger, every == nil, !invalid.contains("every") {
                invalid.add("every", "is required with at")
            } else if case .at = trigger {} else if every != nil {
                invalid.add("every", "goes only with at: a cue repeats on its own")
            }
            step.times = Int(try refusal.value(times, "repeat.times", invalid.prefixed("repeat.")))
            step.every = every ?? 0
        }
        try refusal.check(invalid)
        return step
    }

    /// The fields each `do` reads besides the common ones.
    private static func fields(of verb: String) -> [String] {
        switch verb {
        case "addItems": ["count"]
        case "churn": ["edits", "deletes"]
        case "fail": ["on", "status", "count", "retryAfter"]
        case "set": ["knobs"]
        case "rateLimit": ["limit", "window"]
        case "offline": ["for"]
        case "label": ["text"]
        default: []
        }
    }

    /// `at` (a duration from the start) or `after` (`{"refreshes": N}` or `{"step": name}`), one of them.
    private static func trigger(_ body: JSONBody, refusal: StepRefusal) throws(ScriptError) -> Trigger {
        var invalid = InvalidParameters()
        if body.has("at") && body.has("after") { invalid.add("after", "cannot go with at: a step has one or the other") }
        if !body.has("at") && !body.has("after") { invalid.add("at", "is required, or after") }
        try refusal.check(invalid)
        if body.has("at") {
            return .at(try refusal.value(invalid.take(ScriptDuration.read(body, "at", in: timeRange)), "at", invalid))
        }
        let cue = try refusal.value(invalid.take(body.object("after")), "after", invalid)
        var inner = InvalidParameters()
        cue.rejectUnknown(["refreshes", "step"], into: &inner)
        let refreshes = inner.take(cue.integer("refreshes", in: 1...1_000_000))
        let step = inner.take(cue.string("step"))
        if refreshes != nil && step != nil { inner.add("step", "cannot go with refreshes") }
        if refreshes == nil && step == nil && inner.all.isEmpty { inner.add("refreshes", "is required, or step") }
        try refusal.check(inner.prefixed("after."))
        if let refreshes { return .afterRefreshes(Int(refreshes)) }
        return .afterStep(try refusal.value(step, "after.step", inner))
    }

    private static func action(_ verb: String, _ body: JSONBody,
                               refusal: StepRefusal) throws(ScriptError) -> Action {
        var invalid = InvalidParameters()
        var action: Action?
        switch verb {
        case "addItems":
            action = invalid.required("count", body.integer("count", in: 1...DemoItems.maxCount)).map { .addItems(count: Int($0)) }
        case "churn":
            let edits = invalid.take(body.integer("edits", in: 0...DemoChurn.maxCount)) ?? 0
            let deletes = invalid.take(body.integer("deletes", in: 0...DemoChurn.maxCount)) ?? 0
            if invalid.all.isEmpty && edits + deletes == 0 { invalid.add("edits", "or deletes must be above 0") }
            action = .churn(edits: Int(edits), deletes: Int(deletes))
        case "fail":
            action = FaultQueue.fault(from: body, into: &invalid).map { .fail($0) }
        case "set":
            let knobs = try refusal.value(invalid.required("knobs", body.object("knobs")), "knobs", invalid)
            do {
                action = .set(try DemoKnobs.Patch(knobs))
            } catch {
                invalid = InvalidParameters()
                for param in error.invalidParams { invalid.add("knobs." + param.name, param.reason) }
            }
        case "dropStreams":
            action = .dropStreams
        case "rateLimit":
            let policy = RateLimitWindow.policy(from: body, into: &invalid)
            action = invalid.all.isEmpty ? .rateLimit(policy) : nil
        case "offline":
            action = invalid.required("for", ScriptDuration.read(body, "for", in: 0.001...3600)).map { .offline(seconds: $0) }
        case "label":
            let text = invalid.required("text", body.string("text"))
            if let text, text.unicodeScalars.count > maxLabel { invalid.add("text", "must be at most \(maxLabel) characters") }
            action = text.map { .label($0) }
        default:
            action = nil
        }
        return try refusal.value(action, "do", invalid)
    }
}

/// How a step is refused at its first problem, named by its place and name.
private struct StepRefusal {
    let index: Int
    let name: String?

    /// Throws the first problem `invalid` holds.
    func check(_ invalid: InvalidParameters) throws(ScriptError) {
        if let first = invalid.all.first { throw ScriptError(index: index, name: name, field: first.name, reason: first.reason) }
    }

    /// `value`, once `invalid` holds no problem. A reader that gives nil notes why, so a nil
    /// without a problem is a `field` missing.
    func value<Value>(_ value: Value?, _ field: String, _ invalid: InvalidParameters) throws(ScriptError) -> Value {
        try check(invalid)
        guard let value else { throw ScriptError(index: index, name: name, field: field, reason: InvalidParameters.Reason.required) }
        return value
    }
}

/// Why a script was refused: one line naming the step (its index from 0, and its name) and the field.
struct ScriptError: Error, Equatable, CustomStringConvertible {
    var index: Int?
    var name: String?
    /// The field, dotted inside a step (`after.refreshes`, `knobs.delayMs`); nil: the whole step or script.
    var field: String?
    var reason: String

    var description: String {
        var place = "the script"
        if let index { place = "step \(index)" + (name.map { " (\"\($0)\")" } ?? "") }
        return "\(place): " + (field.map { "\($0) \(reason)" } ?? reason)
    }

    /// The field as `invalid_params` names it: `steps[2].count`.
    var parameter: String {
        let step = index.map { "steps[\($0)]" }
        return [step, field].compactMap { $0 }.joined(separator: ".").nonEmpty ?? "body"
    }

    /// The 400 of `PUT /api/demo/script`.
    var problem: Problem {
        Problem.badRequest("The script was refused, nothing was loaded: \(description).",
                           invalidParams: [InvalidParam(name: parameter, reason: reason)])
    }
}

extension InvalidParameters {
    /// The same problems, each field named inside `prefix`.
    func prefixed(_ prefix: String) -> InvalidParameters {
        var copy = InvalidParameters()
        for param in all { copy.add(prefix + param.name, param.reason) }
        return copy
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

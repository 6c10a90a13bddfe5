import InvalidInput
import PulldownHTTP

/// The knobs as JSON, by name, and changed by a JSON merge patch (RFC 7396).
extension DemoKnobs {
    /// The knobs' names in JSON, in the order they are written.
    static let fieldNames = ["delayMs", "jitterMs", "failRate", "newItemsEvery", "editsPerMinute", "deletesPerMinute",
                             "shortPages", "cursorTtlSeconds"]

    var json: [UInt8] {
        var json = JSONWriter(capacity: 96)
        write(to: &json)
        return json.bytes
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("delayMs"); json.integer(delayMilliseconds)
        json.key("jitterMs"); json.integer(jitterMilliseconds)
        json.key("failRate"); json.number(failRate)
        json.key("newItemsEvery"); json.number(newItemsEvery)
        json.key("editsPerMinute"); json.number(editsPerMinute)
        json.key("deletesPerMinute"); json.number(deletesPerMinute)
        json.key("shortPages"); json.number(shortPages)
        json.key("cursorTtlSeconds"); json.integer(cursorTtlSeconds)
        json.endObject()
    }

    /// The knobs by their JSON names, as a shared store keeps them.
    var numbers: [String: Double] {
        ["delayMs": Double(delayMilliseconds), "jitterMs": Double(jitterMilliseconds),
         "failRate": failRate, "newItemsEvery": newItemsEvery, "editsPerMinute": editsPerMinute,
         "deletesPerMinute": deletesPerMinute, "shortPages": shortPages, "cursorTtlSeconds": Double(cursorTtlSeconds)]
    }

    /// These knobs with each value of `numbers` that names a knob and lies in its range; the
    /// others keep theirs (a store may hold knobs of a newer program, or none yet).
    func with(_ numbers: [String: Double]) -> DemoKnobs {
        func milliseconds(_ name: String) -> Int? {
            numbers[name].flatMap { Int(exactly: $0) }.flatMap { Self.delayRange.contains($0) ? $0 : nil }
        }
        func number(_ name: String, in range: ClosedRange<Double>) -> Double? {
            numbers[name].flatMap { range.contains($0) ? $0 : nil }
        }
        var knobs = self
        knobs.delayMilliseconds = milliseconds("delayMs") ?? delayMilliseconds
        knobs.jitterMilliseconds = milliseconds("jitterMs") ?? jitterMilliseconds
        knobs.failRate = number("failRate", in: Self.failRateRange) ?? failRate
        knobs.newItemsEvery = number("newItemsEvery", in: Self.newItemsEveryRange) ?? newItemsEvery
        knobs.editsPerMinute = number("editsPerMinute", in: Self.churnRange) ?? editsPerMinute
        knobs.deletesPerMinute = number("deletesPerMinute", in: Self.churnRange) ?? deletesPerMinute
        knobs.shortPages = number("shortPages", in: Self.shortPagesRange) ?? shortPages
        knobs.cursorTtlSeconds = numbers["cursorTtlSeconds"].flatMap { Int(exactly: $0) }
            .flatMap { Self.cursorTtlRange.contains($0) ? $0 : nil } ?? cursorTtlSeconds
        return knobs
    }

    /// A merge patch of the knobs, checked: a field given sets that knob, null puts it back to
    /// its start-up value, a field left out keeps it.
    struct Patch: Sendable, Equatable {
        enum Change: Sendable, Equatable {
            case set(Double)
            case reset
        }

        let changes: [String: Change]

        /// Throws one 400 naming every bad or unknown field.
        init(_ body: JSONBody) throws(Problem) {
            var invalid = InvalidParameters()
            body.rejectUnknown(DemoKnobs.fieldNames, into: &invalid)
            let delays = Int64(DemoKnobs.delayRange.lowerBound)...Int64(DemoKnobs.delayRange.upperBound)
            let given: [String: Double?] = [
                "delayMs": invalid.take(body.integer("delayMs", in: delays, nullable: true)).map(Double.init),
                "jitterMs": invalid.take(body.integer("jitterMs", in: delays, nullable: true)).map(Double.init),
                "failRate": invalid.take(body.number("failRate", in: DemoKnobs.failRateRange, nullable: true)),
                "newItemsEvery": invalid.take(body.number("newItemsEvery", in: DemoKnobs.newItemsEveryRange, nullable: true)),
                "editsPerMinute": invalid.take(body.number("editsPerMinute", in: DemoKnobs.churnRange, nullable: true)),
                "deletesPerMinute": invalid.take(body.number("deletesPerMinute", in: DemoKnobs.churnRange, nullable: true)),
                "shortPages": invalid.take(body.number("shortPages", in: DemoKnobs.shortPagesRange, nullable: true)),
                "cursorTtlSeconds": invalid.take(body.integer("cursorTtlSeconds", in: 0...Int64(DemoKnobs.cursorTtlRange.upperBound),
                                                              nullable: true)).map(Double.init),
            ]
            try invalid.check("Some knobs are invalid; none was changed.")
            var changes: [String: Change] = [:]
            for (name, value) in given {
                if body.isNull(name) {
                    changes[name] = .reset
                } else if let value {
                    changes[name] = .set(value)
                }
            }
            self.changes = changes
        }
    }

    /// These knobs with `patch` applied; null puts a knob back to its value in `defaults`.
    func applying(_ patch: Patch, defaults: DemoKnobs) -> DemoKnobs {
        let start = defaults.numbers
        var numbers = self.numbers
        for (name, change) in patch.changes {
            switch change {
            case .set(let value): numbers[name] = value
            case .reset: numbers[name] = start[name]
            }
        }
        return with(numbers)
    }
}

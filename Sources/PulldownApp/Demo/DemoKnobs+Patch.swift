import PulldownHTTP

/// The knobs as JSON, and changed by a JSON merge patch (RFC 7396).
extension DemoKnobs {
    /// The knobs' names in JSON, in the order they are written.
    static let fieldNames = ["delayMs", "jitterMs", "failRate", "newItemsEvery"]

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
        json.endObject()
    }

    /// These knobs with `patch` applied: a field given sets that knob, null puts it back to its
    /// value in `defaults` (the start-up state), a field left out keeps it. Throws one 400 naming
    /// every bad or unknown field, and then changes nothing.
    func merging(_ patch: JSONBody, defaults: DemoKnobs) throws(Problem) -> DemoKnobs {
        var invalid = InvalidParameters()
        patch.rejectUnknown(Self.fieldNames, into: &invalid)
        let delays = Int64(Self.delayRange.lowerBound)...Int64(Self.delayRange.upperBound)
        let delay = invalid.take(patch.integer("delayMs", in: delays))
        let jitter = invalid.take(patch.integer("jitterMs", in: delays))
        let failRate = invalid.take(patch.number("failRate", in: Self.failRateRange))
        let newItemsEvery = invalid.take(patch.number("newItemsEvery", in: Self.newItemsEveryRange))
        try invalid.check("Some knobs are invalid; none was changed.")

        var merged = self
        merged.delayMilliseconds = patch.isNull("delayMs") ? defaults.delayMilliseconds
            : delay.map { Int($0) } ?? delayMilliseconds
        merged.jitterMilliseconds = patch.isNull("jitterMs") ? defaults.jitterMilliseconds
            : jitter.map { Int($0) } ?? jitterMilliseconds
        merged.failRate = patch.isNull("failRate") ? defaults.failRate : failRate ?? self.failRate
        merged.newItemsEvery = patch.isNull("newItemsEvery") ? defaults.newItemsEvery : newItemsEvery ?? self.newItemsEvery
        return merged
    }
}

import Foundation
import InvalidInput
import PulldownHTTP

/// A profile as JSON: what `PUT …/profile` takes (a preset, values, or a preset and values that
/// change it) and what the API and the `demo` events show.
extension NetworkProfile {
    /// The values' names in JSON, in the order they are written.
    static let fieldNames = ["latencyMs", "jitterMs", "bytesPerSecond", "stallMs", "stallAfter", "dropStreamsEvery", "offlineFor"]

    /// Reads a profile from `body`, its offline time counted from `now`; throws one 400 naming
    /// every bad or unknown field. Values given change the preset's (none's when there is no preset).
    init(_ body: JSONBody, now: Date) throws(Problem) {
        var invalid = InvalidParameters()
        body.rejectUnknown(["preset"] + Self.fieldNames, into: &invalid)
        let name = invalid.take(body.string("preset", oneOf: Self.presetNames))
        let latency = invalid.take(body.integer("latencyMs", in: Self.millisecondsRange))
        let jitter = invalid.take(body.integer("jitterMs", in: Self.millisecondsRange))
        let bandwidth = invalid.take(body.integer("bytesPerSecond", in: Self.bytesPerSecondRange))
        let stall = invalid.take(body.integer("stallMs", in: Self.millisecondsRange))
        let stallAfter = invalid.take(body.number("stallAfter", in: Self.shareRange))
        let drop = invalid.take(body.number("dropStreamsEvery", in: Self.secondsRange))
        let offline = invalid.take(body.number("offlineFor", in: Self.secondsRange))
        try invalid.check("The profile is invalid; nothing was changed.")
        var profile = name.flatMap(Self.preset(named:)) ?? NetworkProfile(preset: "none")
        let values: [Any?] = [latency, jitter, bandwidth, stall, stallAfter, drop, offline]
        if values.contains(where: { $0 != nil }) { profile.preset = "custom" }
        profile.latencyMilliseconds = latency.map(Int.init) ?? profile.latencyMilliseconds
        profile.jitterMilliseconds = jitter.map(Int.init) ?? profile.jitterMilliseconds
        profile.bytesPerSecond = bandwidth.map(Int.init) ?? profile.bytesPerSecond
        profile.stallMilliseconds = stall.map(Int.init) ?? profile.stallMilliseconds
        profile.stallAfter = stallAfter ?? profile.stallAfter
        profile.dropStreamsEvery = drop ?? profile.dropStreamsEvery
        profile.offlineFor = offline ?? profile.offlineFor
        profile.offlineUntil = profile.offlineFor > 0 ? now.addingTimeInterval(profile.offlineFor) : nil
        self = profile
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("preset"); json.string(preset)
        json.key("latencyMs"); json.integer(latencyMilliseconds)
        json.key("jitterMs"); json.integer(jitterMilliseconds)
        json.key("bytesPerSecond"); json.integer(bytesPerSecond)
        json.key("stallMs"); json.integer(stallMilliseconds)
        json.key("stallAfter"); json.number(stallAfter)
        json.key("dropStreamsEvery"); json.number(dropStreamsEvery)
        json.key("offlineFor"); json.number(offlineFor)
        json.key("offlineUntil")
        if let offlineUntil { json.string(Timestamp.iso8601(offlineUntil, milliseconds: true)) } else { json.null() }
        json.endObject()
    }
}

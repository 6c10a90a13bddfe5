import Foundation
import PulldownHTTP

/// How one client's network behaves, as the demo plays it (`NetworkProfiles` keeps one per
/// session): a latency before each answer's head, a bandwidth and a pause for its body, event
/// streams dropped now and then, or no network at all for a while. It adds to the demo knobs,
/// which every client gets.
struct NetworkProfile: Sendable, Equatable {
    /// The preset it was made from, as it is; `custom` when values were given.
    var preset = "custom"
    var latencyMilliseconds = 0
    /// Up to this much more latency, drawn for each request.
    var jitterMilliseconds = 0
    /// The body's bandwidth; 0: as fast as the connection goes.
    var bytesPerSecond = 0
    /// A pause of this long after `stallAfter` of each body (a share).
    var stallMilliseconds = 0
    var stallAfter = 0.5
    /// Seconds after which an event stream is closed (the client reconnects); 0: never.
    var dropStreamsEvery = 0.0
    /// Seconds without network, from the moment the profile was set; until `offlineUntil`,
    /// every answer is a 503.
    var offlineFor = 0.0
    var offlineUntil: Date?

    /// The ranges each value may take, in `PUT …/profile` and the OpenAPI document alike.
    static let millisecondsRange: ClosedRange<Int64> = 0...60_000
    static let bytesPerSecondRange: ClosedRange<Int64> = 0...1_000_000_000
    static let shareRange: ClosedRange<Double> = 0...1
    static let secondsRange: ClosedRange<Double> = 0...3_600

    /// The named profiles, in the order the Demo panel shows them; `none` is no profile.
    static let presets: KeyValuePairs<String, NetworkProfile> = [
        "none": NetworkProfile(preset: "none"),
        // About a slow 3G link: 400 kbit/s, with the round trips of a cell network.
        "3g": NetworkProfile(preset: "3g", latencyMilliseconds: 400, jitterMilliseconds: 100, bytesPerSecond: 50_000),
        // Quick when it works; then a long pause mid-answer, and the event stream lost now and then.
        "flaky-wifi": NetworkProfile(preset: "flaky-wifi", latencyMilliseconds: 20, jitterMilliseconds: 400,
                                     bytesPerSecond: 200_000, stallMilliseconds: 2_000, stallAfter: 0.5, dropStreamsEvery: 15),
        "offline-10s": NetworkProfile(preset: "offline-10s", offlineFor: 10),
    ]

    static var presetNames: [String] { presets.map(\.key) }

    static func preset(named name: String) -> NetworkProfile? {
        presets.first { $0.key == name }?.value
    }

    /// Whether the client is offline at `now`: every answer is a 503 until `offlineUntil`.
    func isOffline(at now: Date) -> Bool {
        offlineUntil.map { now < $0 } ?? false
    }

    /// Nothing in it changes how the client is answered at `now`.
    func isNone(at now: Date) -> Bool {
        latencyMilliseconds == 0 && jitterMilliseconds == 0 && pacing.isNone && dropStreamsEvery == 0 && !isOffline(at: now)
    }

    /// What the profile is once its offline time is over; nil when nothing else is left.
    func afterOffline(at now: Date) -> NetworkProfile? {
        var rest = self
        rest.offlineFor = 0
        rest.offlineUntil = nil
        if rest.preset == "offline-10s" { rest.preset = "custom" }
        return rest.isNone(at: now) ? nil : rest
    }

    /// How a body is sent.
    var pacing: Pacing {
        Pacing(bytesPerSecond: bytesPerSecond, stall: .milliseconds(stallMilliseconds), stallAfter: stallAfter)
    }

    /// The wait before one answer's head: the latency and a draw of the jitter.
    func headDelayMilliseconds() -> Int {
        latencyMilliseconds + (jitterMilliseconds > 0 ? Int.random(in: 0...jitterMilliseconds) : 0)
    }
}

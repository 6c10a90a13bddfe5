import PulldownHTTP

/// A demo that runs itself: steps, each at a time from the start or on a cue, each doing one
/// thing the demo can do (`Action`). Read from JSON (`DemoScript+JSON`), played by `ScriptState`.
struct DemoScript: Sendable, Equatable {
    var steps: [Step]

    struct Step: Sendable, Equatable {
        /// What others' `after: {"step": name}` name it by; nil when it has none.
        var name: String?
        var trigger: Trigger
        var action: Action
        /// How many times it runs in all (`repeat.times`, 1 without one).
        var times = 1
        /// With `at`: seconds between runs (`repeat.every`).
        var every: Double = 0
    }

    enum Trigger: Sendable, Equatable {
        /// Seconds of play from the start.
        case at(Double)
        /// Once this many refreshes (`POST /api/refresh`) arrived since the start; again after as
        /// many more, while it has runs left.
        case afterRefreshes(Int)
        /// Each time the step of that name has run.
        case afterStep(String)
    }

    enum Action: Sendable, Equatable {
        case addItems(count: Int)
        case churn(edits: Int, deletes: Int)
        case fail(FaultQueue.Fault)
        case set(DemoKnobs.Patch)
        case dropStreams
        case rateLimit(RateLimitWindow.Policy?)
        case offline(seconds: Double)
        case label(String)

        /// The `do` it is written with.
        var verb: String {
            switch self {
            case .addItems: "addItems"
            case .churn: "churn"
            case .fail: "fail"
            case .set: "set"
            case .dropStreams: "dropStreams"
            case .rateLimit: "rateLimit"
            case .offline: "offline"
            case .label: "label"
            }
        }
    }

    /// The index of the step named `name`.
    func index(named name: String) -> Int? {
        steps.firstIndex { $0.name == name }
    }
}

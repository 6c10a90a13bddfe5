import Foundation

/// Where a script's play is, as a pure state machine: events in (a script loaded, play, pause,
/// restart, the clock reached a time, a refresh was answered, a step ran), actions out (run step
/// k, wake me at T). `ScriptPlayer` carries the actions out on the demo and its clock; tests
/// drive this directly with dates of their own.
///
/// Time is play time: the seconds played since the start, paused time left out. Steps due at
/// the same moment run in the order of the script.
struct ScriptState: Sendable {
    enum Phase: String, Sendable {
        /// No script loaded.
        case idle
        case playing, paused
        /// Every step ran all its times.
        case finished
    }

    enum Action: Equatable, Sendable {
        /// Carry out step k now, then tell `ran(k, at:)`.
        case run(Int)
        /// Call `advance(to:)` at this time (one timer: a new wake replaces the old).
        case wake(at: Date)
    }

    private(set) var script = DemoScript(steps: [])
    private(set) var phase = Phase.idle
    /// Times each step ran since the start.
    private(set) var runs: [Int] = []
    /// Refreshes answered since the start, while playing.
    private(set) var refreshes = 0
    /// The text of the last `label` step run; nil before one.
    private(set) var label: String?
    /// Play time of each `at` step's next run; nil when it has none left (or is a cue's).
    private(set) var due: [Double?] = []
    private var playedBefore: Double = 0
    private var resumedAt: Date?

    // MARK: Events

    /// Loads `script`, from its start: playing at once, or paused until `play`.
    mutating func load(_ script: DemoScript, at now: Date, playing: Bool) -> [Action] {
        self.script = script
        phase = .paused
        rewind()
        return playing ? play(at: now) : []
    }

    /// Plays on from where it paused; nothing when it is not paused.
    mutating func play(at now: Date) -> [Action] {
        guard phase == .paused else { return [] }
        phase = .playing
        resumedAt = now
        return advance(to: now)
    }

    mutating func pause(at now: Date) -> [Action] {
        guard phase == .playing else { return [] }
        playedBefore = elapsed(at: now)
        resumedAt = nil
        phase = .paused
        return []
    }

    /// Back to the start and playing, label, counts and all.
    mutating func restart(at now: Date) -> [Action] {
        guard phase != .idle else { return [] }
        rewind()
        phase = .paused
        return play(at: now)
    }

    /// The clock reached `now`: the `at` steps due by then, in order of their time, then of the
    /// script; and when to wake next.
    mutating func advance(to now: Date) -> [Action] {
        guard phase == .playing else { return [] }
        let played = elapsed(at: now)
        var actions: [Action] = []
        while let next = nextDue(), next.time <= played {
            let step = script.steps[next.index]
            due[next.index] = runs[next.index] + 1 < step.times ? next.time + step.every : nil
            actions += start(next.index)
        }
        return actions + finishOrWake(at: now)
    }

    /// A refresh was answered: the steps waiting for this many.
    mutating func refreshed(at now: Date) -> [Action] {
        guard phase == .playing else { return [] }
        refreshes += 1
        var actions: [Action] = []
        for (index, step) in script.steps.enumerated() {
            guard case .afterRefreshes(let count) = step.trigger, runs[index] < step.times,
                  refreshes == count * (runs[index] + 1) else { continue }
            actions += start(index)
        }
        return actions + finishOrWake(at: now)
    }

    /// Step `index` ran: the steps cued on it.
    mutating func ran(_ index: Int, at now: Date) -> [Action] {
        guard phase == .playing, let name = script.steps[index].name else { return [] }
        var actions: [Action] = []
        for (cued, step) in script.steps.enumerated() where step.trigger == .afterStep(name) && runs[cued] < step.times {
            actions += start(cued)
        }
        return actions + finishOrWake(at: now)
    }

    // MARK: Reading

    /// Seconds played at `now`.
    func elapsed(at now: Date) -> Double {
        guard phase == .playing, let resumedAt else { return playedBefore }
        return playedBefore + max(0, now.timeIntervalSince(resumedAt))
    }

    /// The `at` step that runs next and its play time; nil when none is waiting on the clock.
    func nextDue() -> (index: Int, time: Double)? {
        var best: (index: Int, time: Double)?
        for (index, time) in due.enumerated() {
            guard let time else { continue }
            if time < best?.time ?? .infinity { best = (index, time) }
        }
        return best
    }

    /// When `nextDue` runs, by the clock; nil unless playing.
    func nextDueDate() -> Date? {
        guard phase == .playing, let resumedAt, let next = nextDue() else { return nil }
        return resumedAt.addingTimeInterval(next.time - playedBefore)
    }

    // MARK: Inside

    private mutating func rewind() {
        runs = Array(repeating: 0, count: script.steps.count)
        due = script.steps.map { step in
            if case .at(let time) = step.trigger { return time }
            return nil
        }
        refreshes = 0
        label = nil
        playedBefore = 0
        resumedAt = nil
    }

    private mutating func start(_ index: Int) -> [Action] {
        runs[index] += 1
        if case .label(let text) = script.steps[index].action { label = text }
        return [.run(index)]
    }

    private mutating func finishOrWake(at now: Date) -> [Action] {
        if zip(runs, script.steps).allSatisfy({ $0 >= $1.times }) {
            playedBefore = elapsed(at: now)
            resumedAt = nil
            phase = .finished
            return []
        }
        return nextDueDate().map { [.wake(at: $0)] } ?? []
    }
}

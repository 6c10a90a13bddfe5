import Dispatch
import Foundation
import PulldownFeed
import PulldownHTTP
import Synchronization

/// Plays a script on the running demo: feeds `ScriptState` its events (load, play, pause,
/// restart, the demo clock's time, refreshes answered, steps done) and carries out what it
/// answers, one event at a time on a queue of its own. A step's work is done before the next
/// event is taken (an item burst is in the store before the step cued on it runs, and before
/// the request that moved a manual clock is answered). Every change goes out on the event
/// stream as `event: script`, with the same JSON as `GET /api/demo/script`.
final class ScriptPlayer: Sendable {
    /// What the steps act on.
    struct Stage: Sendable {
        let feed: Feed
        let control: DemoControl
        /// The store that shares the knobs, if any: a `set` step goes through it as a PATCH does.
        let sync: DemoKnobsSync?
        let churn: DemoChurn
        let live: LiveEvents
        let gate: ScriptGate
    }

    private struct Playing {
        var state = ScriptState()
        /// Counts the timers set: one that rings after another was set does nothing.
        var timer = 0
    }

    private let clock: DemoClock
    private let stage: Stage
    private let queue = DispatchQueue(label: "pulldown.script")
    private let playing = Mutex(Playing())

    init(clock: DemoClock, stage: Stage) {
        self.clock = clock
        self.stage = stage
        // A manual clock has no timer to wait on: each move is a tick.
        clock.observe { [weak self] _ in self?.tick() }
    }

    // MARK: Events

    func load(_ script: DemoScript, playing autoplay: Bool = true) {
        event(control: true) { state, now in
            self.stage.gate.clear()
            return state.load(script, at: now, playing: autoplay)
        }
    }

    /// Answers false when no script is loaded.
    @discardableResult
    func play() -> Bool { control { $0.play(at: $1) } }
    @discardableResult
    func pause() -> Bool { control { $0.pause(at: $1) } }
    @discardableResult
    func restart() -> Bool {
        control { state, now in
            self.stage.gate.clear()
            return state.restart(at: now)
        }
    }

    func refreshed() {
        event(control: false) { $0.refreshed(at: $1) }
    }

    /// The clock may have reached a step.
    func tick() {
        event(control: false) { $0.advance(to: $1) }
    }

    /// The script's state as JSON (`ScriptJSON`).
    var json: [UInt8] {
        queue.sync { statusJSON() }
    }

    // MARK: On the queue

    private func control(_ change: @escaping (inout ScriptState, Date) -> [ScriptState.Action]) -> Bool {
        var loaded = false
        event(control: true) { state, now in
            loaded = state.phase != .idle
            return loaded ? change(&state, now) : []
        }
        return loaded
    }

    /// Runs `change` on the state and carries out its actions, then the actions of the steps
    /// they ran; tells the event stream when a step ran or `control` changed the play.
    private func event(control: Bool, _ change: (inout ScriptState, Date) -> [ScriptState.Action]) {
        queue.sync {
            var actions = playing.withLock { change(&$0.state, clock.now()) }
            var ran = false
            while !actions.isEmpty {
                switch actions.removeFirst() {
                case .run(let index):
                    ran = true
                    perform(playing.withLock { $0.state.script.steps[index].action })
                    actions += playing.withLock { $0.state.ran(index, at: clock.now()) }
                case .wake:
                    break   // read below, once every step is done
                }
            }
            schedule(playing.withLock { $0.state.nextDueDate() })
            stage.gate.countRefreshes(playing.withLock { $0.state.phase == .playing })
            if control || ran { stage.live.broadcast(ServerSentEvents.event("script", id: nil, data: statusJSON()), kept: true) }
        }
    }

    /// One timer, replaced at each event; none on a manual clock, whose moves tick.
    private func schedule(_ wake: Date?) {
        let timer = playing.withLock { $0.timer += 1; return $0.timer }
        guard let wake, !clock.isManual else { return }
        let seconds = max(0, wake.timeIntervalSince(clock.now()))
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, self.playing.withLock({ $0.timer == timer }) else { return }
            self.tick()
        }
    }

    private func perform(_ action: DemoScript.Action) {
        switch action {
        case .addItems(let count):
            wait { done in stage.feed.addDemoItems(count: count) { result in
                if case .failure(let error) = result { ErrorLog.write("script: cannot add demo items: \(error)") }
                done()
            } }
        case .churn(let edits, let deletes):
            wait { done in stage.churn.churn(edits: edits, deletes: deletes) { result in
                if case .failure(let error) = result { ErrorLog.write("script: cannot edit or delete items: \(error)") }
                done()
            } }
        case .fail(let fault):
            _ = stage.control.changeFaults { $0.add(fault) }
        case .set(let patch):
            if let sync = stage.sync { sync.change(patch, Responder { _ in }) } else { _ = stage.control.apply(patch) }
        case .dropStreams:
            stage.live.dropStreams()
        case .rateLimit(let policy):
            stage.gate.setRateLimit(policy)
        case .offline(let seconds):
            stage.gate.goOffline(for: seconds)
        case .label:
            break   // the state keeps it; the event tells it
        }
    }

    /// Runs `work` and waits until it calls `done`: a step is over when its change is stored.
    private func wait(_ work: (@escaping @Sendable () -> Void) -> Void) {
        let finished = DispatchSemaphore(value: 0)
        work { finished.signal() }
        finished.wait()
    }

    private func statusJSON() -> [UInt8] {
        let state = playing.withLock { $0.state }
        return ScriptJSON.status(state, now: clock.now(), rateLimit: stage.gate.rateLimit?.policy,
                                 offlineUntil: stage.gate.offlineUntil, manualClock: clock.isManual)
    }
}

/// The script's parts as the application joins them: the player, the gate in front of the API
/// (which tells the player of refreshes), and the routes.
struct ScriptWiring: Sendable {
    let player: ScriptPlayer
    let stage: ScriptPlayer.Stage
    let clock: DemoClock

    init(clock: DemoClock, stage: ScriptPlayer.Stage) {
        let player = ScriptPlayer(clock: clock, stage: stage)
        stage.gate.onRefresh { [weak player] in player?.refreshed() }
        self.player = player
        self.stage = stage
        self.clock = clock
    }

    func endpoints(generate: @escaping @Sendable () -> Void) -> ScriptEndpoints {
        ScriptEndpoints(player: player, clock: clock, gate: stage.gate, generate: generate)
    }
}

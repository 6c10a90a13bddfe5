/// The pull-to-refresh panel as a pure state machine: the twin of the page's `pull-state.js`,
/// held to the same rules by the same cases.
///
/// For a panel drawn by hand (UIKit, or a custom SwiftUI gesture); SwiftUI's `.refreshable` draws
/// its own. Each method takes one input and returns what the panel must show, or nil when nothing
/// changes. The panel arms at `threshold` points of pull, which the finger reaches at
/// `threshold / resistance`; it never opens past `maxPull`. While a refresh runs, and while the
/// panel closes after one, pulls are ignored.
public struct PullState: Sendable, Hashable {
    /// The panel's state, as the seeds draw it.
    public enum Phase: Sendable, Hashable {
        /// Hidden above the list.
        case idle
        /// Following the finger: arrow down, "Pull down to refresh…".
        case pulling
        /// Past the threshold: arrow up, "Release to refresh…".
        case armed
        /// Held open: spinner, "Updating…".
        case refreshing
        /// Closing after the refresh, the new rows sliding in, "Last updated on …".
        case settling
    }

    /// What the panel shows after an input.
    public struct Action: Sendable, Hashable {
        public let phase: Phase
        /// How far (points) the content is pulled down.
        public let offset: Double
        /// Whether to animate to it.
        public let animate: Bool
        /// Whether the host's refresh must start now.
        public let refresh: Bool

        public init(phase: Phase, offset: Double, animate: Bool, refresh: Bool) {
            self.phase = phase
            self.offset = offset
            self.animate = animate
            self.refresh = refresh
        }
    }

    public let threshold: Double
    public let maxPull: Double
    public let resistance: Double
    public private(set) var phase = Phase.idle
    public private(set) var offset = 0.0

    /// The seed's panel: it arms at 60 points; `maxPull` is at least the threshold.
    public init(threshold: Double = 60, maxPull: Double = 140, resistance: Double = 0.5) {
        self.threshold = threshold
        self.maxPull = max(maxPull, threshold)
        self.resistance = resistance
    }

    /// True while a refresh runs or the panel closes after one: pulls are ignored then.
    public var isBusy: Bool { phase == .refreshing || phase == .settling }

    /// The finger is `distance` points below where the pull started.
    public mutating func drag(_ distance: Double) -> Action? {
        guard !isBusy else { return nil }
        let offset = min(maxPull, max(0, distance) * resistance)
        if phase == .idle && offset == 0 { return nil }
        return go(offset >= threshold ? .armed : .pulling, offset, animate: false)
    }

    /// The finger was lifted: refresh if armed, else spring back without asking for anything.
    public mutating func release() -> Action? {
        switch phase {
        case .armed: go(.refreshing, threshold, animate: true, refresh: true)
        case .pulling: go(.idle, 0, animate: true)
        default: nil
        }
    }

    /// The gesture was taken away: spring back, never refresh.
    public mutating func cancel() -> Action? {
        phase == .pulling || phase == .armed ? go(.idle, 0, animate: true) : nil
    }

    /// A refresh asked for without a pull (a button, the keyboard, code).
    public mutating func begin() -> Action? {
        isBusy ? nil : go(.refreshing, threshold, animate: true, refresh: true)
    }

    /// The host's refresh finished, either way: close the panel.
    public mutating func end() -> Action? {
        phase == .refreshing ? go(.settling, 0, animate: true) : nil
    }

    /// The closing animation is over.
    public mutating func settled() -> Action? {
        phase == .settling ? go(.idle, 0, animate: false) : nil
    }

    private mutating func go(_ phase: Phase, _ offset: Double, animate: Bool, refresh: Bool = false) -> Action {
        self.phase = phase
        self.offset = offset
        return Action(phase: phase, offset: offset, animate: animate, refresh: refresh)
    }
}

/// The demo knobs kept in a store several instances share (PostgreSQL), so that a change made on
/// one holds on all. A knob is a number under its name in `GET /api/demo`; what the knobs mean
/// is the caller's business, not the store's.
public protocol SharedDemoKnobs: Sendable {
    /// Called once at start, with this start's knobs. When no other instance runs on the store,
    /// they become the shared knobs and their start values; else the running instances' knobs
    /// stay, and only knobs they do not have are added. Answers the state joined and how many
    /// other instances were running.
    func join(with knobs: [String: Double]) throws -> (state: SharedKnobsState, othersRunning: Int64)
    /// The knobs as stored now.
    func readKnobs() throws -> SharedKnobsState
    /// Stores the knobs `change` makes of the current ones, in one transaction serialized with
    /// every other change on the store, and tells the other instances; answers the new state.
    func changeKnobs(_ change: (SharedKnobsState) -> [String: Double]) throws -> SharedKnobsState
    /// Calls `handler` on any thread when another instance changed the knobs, or when changes
    /// may have been missed (a lost connection): either way, read them again.
    func observeKnobChanges(_ handler: @escaping @Sendable () -> Void)
}

/// The shared knobs at one revision.
public struct SharedKnobsState: Sendable, Equatable {
    public var values: [String: Double]
    /// The values the running instances started with (what a reset restores).
    public var startValues: [String: Double]
    /// Moves with every change: of two states, the one with the larger revision is newer.
    public var revision: Int64
}

extension Feed {
    /// The knobs shared with the other instances on the store; nil for a store no other
    /// instance uses (SQLite), where the knobs live in memory only.
    public var sharedDemoKnobs: (any SharedDemoKnobs)? {
        store as? any SharedDemoKnobs
    }
}

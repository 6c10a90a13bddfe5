/// The shared demo knobs in the `demo_knobs` table. Every change, and every start, first locks
/// the `meta` row of their revision, so they run one at a time across instances; a change
/// notifies `pulldown_demo_knobs` with the new revision.
extension PostgresStore: SharedDemoKnobs {
    func join(with knobs: [String: Double]) throws -> (state: SharedKnobsState, othersRunning: Int64) {
        try inTransaction { connection in
            try lockRevision(connection)
            let others = try otherInstancesRunning(on: connection)
            if others == 0 {
                // The first to start: the knobs are this start's, whatever a past run left.
                try connection.execute("DELETE FROM demo_knobs")
                try store(knobs, on: connection, keeping: .nothing)
                try moveRevision(connection)
            } else {
                // Only knobs the running ones do not have (a newer program's) start at ours.
                try store(knobs, on: connection, keeping: .everything)
            }
            return (try readState(connection), others)
        }
    }

    func readKnobs() throws -> SharedKnobsState {
        try pool.withConnection { try readState($0) }
    }

    func changeKnobs(_ change: (SharedKnobsState) -> [String: Double]) throws -> SharedKnobsState {
        try inTransaction { connection in
            try lockRevision(connection)
            // Read after the lock: the change builds on the last one committed.
            try store(change(readState(connection)), on: connection, keeping: .startValues)
            try moveRevision(connection)
            return try readState(connection)
        }
    }

    func observeKnobChanges(_ handler: @escaping @Sendable () -> Void) {
        observe(Self.demoKnobsChannel) { _ in handler() }
    }

    private func lockRevision(_ connection: PGConnection) throws {
        try connection.query("SELECT number FROM meta WHERE key = $1::text FOR UPDATE", [.text(MetaKey.demoKnobsRevision)])
    }

    private func moveRevision(_ connection: PGConnection) throws {
        let revision = try connection.query(
            "UPDATE meta SET number = number + 1 WHERE key = $1::text RETURNING number::bigint",
            [.text(MetaKey.demoKnobsRevision)]).int64(0, 0)
        try notify(Self.demoKnobsChannel, revision, on: connection)
    }

    /// What `store` leaves as it was for a knob already stored.
    private enum Kept: String {
        case nothing = "DO UPDATE SET value = excluded.value, start_value = excluded.start_value"
        case startValues = "DO UPDATE SET value = excluded.value"
        case everything = "DO NOTHING"
    }

    /// Writes `knobs`; a knob new to the table starts at its value.
    private func store(_ knobs: [String: Double], on connection: PGConnection, keeping kept: Kept) throws {
        for (name, value) in knobs.sorted(by: { $0.key < $1.key }) {
            try connection.query("""
                INSERT INTO demo_knobs(name, value, start_value) VALUES ($1::text, $2::float8, $2::float8)
                ON CONFLICT (name) \(kept.rawValue)
                """, [.text(name), .double(value)])
        }
    }

    /// One statement, so the revision and the rows are of one snapshot.
    private func readState(_ connection: PGConnection) throws -> SharedKnobsState {
        let result = try connection.query("""
            SELECT m.number::bigint, k.name, k.value, k.start_value
            FROM meta m LEFT JOIN demo_knobs k ON true WHERE m.key = $1::text
            """, [.text(MetaKey.demoKnobsRevision)])
        var state = SharedKnobsState(values: [:], startValues: [:], revision: 0)
        for row in 0..<result.rowCount {
            state.revision = result.int64(row, 0)
            guard !result.isNull(row, 1) else { continue }
            let name = result.string(row, 1)
            state.values[name] = result.double(row, 2)
            state.startValues[name] = result.double(row, 3)
        }
        return state
    }
}

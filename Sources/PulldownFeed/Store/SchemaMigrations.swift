/// Brings a database's layout up to the newest version, one step at a time.
///
/// SQLite and PostgreSQL differ only in where they keep the version number and in how they keep
/// other processes from migrating at the same moment; the walk through the steps is this one.
/// Step n (counting from 1) produces version n. To change a layout, append a step; steps already
/// shipped are never edited.
struct SchemaMigrations<Connection>: Sendable {
    let steps: [@Sendable (Connection) throws -> Void]
    /// The version the database is at; 0 for a new one.
    let readVersion: @Sendable (Connection) throws -> Int64
    /// Records the version a step produced, inside that step's transaction.
    let writeVersion: @Sendable (Connection, Int64) throws -> Void

    /// The version this program lays out and understands.
    var latestVersion: Int64 { Int64(steps.count) }

    /// Runs the steps the database behind `connection` has not run yet.
    ///
    /// `transaction` runs one step with its version check and record, holding the lock that
    /// other processes take to migrate. Throws `StoreError.schemaTooNew` for a database laid out
    /// by a newer program, and changes nothing then.
    func migrate(_ connection: Connection, location: String,
                 transaction: (() throws -> Void) throws -> Void) throws {
        let found = try readVersion(connection)
        guard found <= latestVersion else {
            throw StoreError.schemaTooNew(location: location, found: found, supported: latestVersion)
        }
        var version = found
        while version < latestVersion {
            version += 1
            try transaction {
                // Re-read under the lock: another process may have migrated meanwhile.
                guard try readVersion(connection) == version - 1 else { return }
                try steps[Int(version - 1)](connection)
                try writeVersion(connection, version)
            }
        }
    }
}

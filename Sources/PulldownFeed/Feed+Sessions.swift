import Foundation

extension Feed {
    /// What is stored for the session, or nil when it never refreshed. Creates nothing.
    public func session(_ id: SessionID) throws -> SessionState? {
        guard let row = try store.read({ try $0.session(id) }) else { return nil }
        return SessionState(lastUpdated: Date(timeIntervalSince1970: row.lastUpdated),
                            lastSeenID: row.lastSeenID, refreshCount: row.refreshCount)
    }

    /// Deletes sessions not active for longer than `sessionTTL`; returns how many.
    @discardableResult
    public func expireIdleSessions() throws -> Int {
        let cutoff = clock.now().timeIntervalSince1970 - configuration.sessionTTL
        return try store.write { try $0.deleteSessions(lastActiveBefore: cutoff) }
    }
}

extension Feed {
    /// A pull-to-refresh: generates demo items if due, finds what is new since the baseline, and
    /// stamps the session, all in one transaction (a failure changes nothing); `completion` gets
    /// the answer later, on the writer queue.
    ///
    /// The baseline is `after`, else the session's last seen id, else 0. Items are the newest
    /// `limit` with id > baseline, newest first; `gap` is true when more than `limit` are newer.
    /// The session's lastUpdated never moves back, its lastSeenID never shrinks, and every
    /// successful call counts, concurrent ones included.
    ///
    /// It also brings the edits and deletions since `changes` (else since the sequence the
    /// session's last refresh reflected; none for a session that never said), at most
    /// `Refresher.maxChanges`: more than that, or older than the log keeps, and the answer is
    /// the newest items with `gap` set, from which the client starts over.
    ///
    /// Refreshes that arrive together are committed in one transaction (group commit, see
    /// `GroupCommit`), so a burst of them costs one commit, not one each, and no server
    /// thread waits for the write lock. Each is applied in order, as if alone; if the
    /// transaction fails, every refresh in it fails and nothing changes.
    public func refresh(session id: SessionID, after: Int64?, changes: Int64? = nil, limit: Int,
                        completion: @escaping @Sendable (Result<RefreshResult, any Error>) -> Void) {
        refreshes.submit(RefreshRequest(session: id, after: after, limit: clamp(limit), changesSince: changes),
                         completion: completion)
    }
}

import Dispatch
import Synchronization

/// One refresh waiting to be committed.
struct RefreshRequest: Sendable {
    let session: SessionID
    let after: Int64?
    let limit: Int
}

/// Collects refreshes from many threads and commits them in batches on one writer queue.
///
/// The first refresh to arrive starts a drain; while a batch is being committed, new ones
/// pile up and go together in the next transaction. Under load a commit carries dozens of
/// refreshes; when quiet, a refresh is committed alone, straight away.
final class RefreshBatcher: Sendable {
    typealias Completion = @Sendable (Result<RefreshResult, any Error>) -> Void

    /// The most refreshes one transaction carries, so that one batch cannot hold the lock long.
    static let maxBatch = 256

    typealias Commit = @Sendable ([RefreshRequest]) throws -> [RefreshResult]

    private struct Pending {
        var jobs: [(request: RefreshRequest, completion: Completion)] = []
        var draining = false
    }

    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "pulldown.refresh-writer", qos: .userInitiated)

    /// Queues a refresh; `commit` writes a batch (the feed passes its own, so the batcher
    /// holds no reference to the feed between batches).
    func submit(_ request: RefreshRequest, commit: @escaping Commit, completion: @escaping Completion) {
        let startDrain = pending.withLock { state -> Bool in
            state.jobs.append((request, completion))
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain { queue.async { self.drain(commit) } }
    }

    private func drain(_ commit: Commit) {
        while true {
            let batch = pending.withLock { state -> [(request: RefreshRequest, completion: Completion)] in
                let batch = Array(state.jobs.prefix(Self.maxBatch))
                state.jobs.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                let results = try commit(batch.map(\.request))
                for (job, result) in zip(batch, results) { job.completion(.success(result)) }
            } catch {
                for job in batch { job.completion(.failure(error)) }
            }
        }
    }
}

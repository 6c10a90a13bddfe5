import Dispatch
import Synchronization

/// Collects refreshes from many threads and commits them in batches on one writer queue.
///
/// The first refresh to arrive starts a drain; while a batch is being committed, new ones
/// pile up and go together in the next transaction. Under load a commit carries dozens of
/// refreshes; when quiet, a refresh is committed alone, straight away.
final class RefreshBatcher: Sendable {
    typealias Completion = @Sendable (Result<RefreshResult, any Error>) -> Void
    /// Writes a batch in one transaction and returns one result per request, in order.
    typealias Commit = @Sendable ([RefreshRequest]) throws -> [RefreshResult]

    /// The most refreshes one transaction carries, so that one batch cannot hold the lock long.
    static let maxBatch = 256

    private struct Pending {
        var jobs: [(request: RefreshRequest, completion: Completion)] = []
        var draining = false
    }

    private let commit: Commit
    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "pulldown.refresh-writer", qos: .userInitiated)

    /// A batcher that writes every batch with `commit`.
    init(commit: @escaping Commit) {
        self.commit = commit
    }

    /// Queues a refresh; `completion` runs on the writer queue once its batch committed or failed.
    func submit(_ request: RefreshRequest, completion: @escaping Completion) {
        let startDrain = pending.withLock { state -> Bool in
            state.jobs.append((request, completion))
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    private func drain() {
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

import Dispatch
import Synchronization

/// Collects writes of one kind from many threads and commits them in batches on the writer queue.
///
/// The first write to arrive starts a drain; while a batch is being committed, new ones pile up
/// and go together in the next transaction. Under load a commit carries dozens of writes; when
/// quiet, a write is committed alone, straight away. The caller's thread never waits for the
/// write lock or the disk: a server thread that did would stall every connection it serves.
final class GroupCommit<Request: Sendable, Outcome: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Outcome, any Error>) -> Void
    /// Writes a batch in one transaction and returns one outcome per request, in order.
    typealias Commit = @Sendable ([Request]) throws -> [Outcome]

    private struct Pending {
        var jobs: [(request: Request, completion: Completion)] = []
        var draining = false
    }

    /// The most writes one transaction carries, so that one batch cannot hold the lock long.
    let maxBatch = 256
    private let commit: Commit
    private let pending = Mutex(Pending())
    /// Serial, and shared by every kind of write, so that they take the write lock in turn.
    private let queue: DispatchQueue

    /// Commits every batch with `commit` on `queue`.
    init(queue: DispatchQueue, commit: @escaping Commit) {
        self.queue = queue
        self.commit = commit
    }

    /// Queues a write; `completion` runs on the writer queue once its batch committed or failed.
    func submit(_ request: Request, completion: @escaping Completion) {
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
            let batch = pending.withLock { state -> [(request: Request, completion: Completion)] in
                let batch = Array(state.jobs.prefix(maxBatch))
                state.jobs.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                let outcomes = try commit(batch.map(\.request))
                for (job, outcome) in zip(batch, outcomes) { job.completion(.success(outcome)) }
            } catch {
                for job in batch { job.completion(.failure(error)) }
            }
        }
    }
}

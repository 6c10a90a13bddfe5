import Dispatch
import Synchronization

/// Adds demo items when they are due while someone watches the feed live, so new items show up
/// without a pull (a refresh also generates what is due, see `Refresher`).
///
/// Nothing is generated while `watched()` is false, so an idle demo's store does not grow.
/// Generation runs on a serial queue of its own: one batch at a time, no server thread held.
public final class DemoGeneratorTimer: Sendable {
    private let timer: Mutex<(any DispatchSourceTimer)?>

    /// Starts checking. `onError` hears every failed generation (the store did not answer); the
    /// next check tries again. The checks follow `Feed.newItemsEvery` as it changes: while it is
    /// 0 they cost a read of it and nothing else.
    public init(feed: Feed, whileWatched watched: @escaping @Sendable () -> Bool,
                onError: @escaping @Sendable (any Error) -> Void) {
        let period = Mutex(Self.checkPeriod(for: feed.newItemsEvery))
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pulldown.demo-generator", qos: .utility))
        let first = period.withLock { $0 }
        source.schedule(deadline: .now() + first, repeating: first)
        // The handler holds its source (to reschedule it) until `cancel()`, which releases it.
        source.setEventHandler { [weak feed] in
            guard let feed else { return }
            let wanted = Self.checkPeriod(for: feed.newItemsEvery)
            if period.withLock({ current in defer { current = wanted }; return current != wanted }) {
                source.schedule(deadline: .now() + wanted, repeating: wanted)
            }
            guard watched() else { return }
            do {
                try feed.generateDueItems()
            } catch {
                onError(error)
            }
        }
        source.resume()
        timer = Mutex(source)
    }

    /// Checked often, so an item appears about when it is due; the generator decides whether it
    /// is. Off, once a second notices it being turned on.
    private static func checkPeriod(for interval: Double) -> Double {
        interval > 0 ? min(1, max(0.1, interval / 4)) : 1
    }

    public func cancel() {
        timer.withLock { $0?.cancel() }
    }
}

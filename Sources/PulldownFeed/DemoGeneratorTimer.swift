import Dispatch
import Synchronization

/// Adds demo items when they are due while someone watches the feed live, so new items show up
/// without a pull (a refresh also generates what is due, see `Refresher`).
///
/// Nothing is generated while `watched()` is false, so an idle demo's store does not grow.
/// Generation runs on a serial queue of its own: one batch at a time, no server thread held.
public final class DemoGeneratorTimer: Sendable {
    private let timer: Mutex<(any DispatchSourceTimer)?>

    /// Starts checking, when the feed's generator is on (`newItemsEvery` > 0). `onError` hears
    /// every failed generation (the store did not answer); the next check tries again.
    public init(feed: Feed, whileWatched watched: @escaping @Sendable () -> Bool,
                onError: @escaping @Sendable (any Error) -> Void) {
        let interval = feed.generator.interval
        guard interval > 0 else {
            timer = Mutex(nil)
            return
        }
        // Checked often, so an item appears about when it is due; the generator decides whether it is.
        let check = min(1, max(0.1, interval / 4))
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pulldown.demo-generator", qos: .utility))
        source.schedule(deadline: .now() + check, repeating: check)
        source.setEventHandler { [weak feed] in
            guard let feed, watched() else { return }
            do {
                try feed.generateDueItems()
            } catch {
                onError(error)
            }
        }
        source.resume()
        timer = Mutex(source)
    }

    public func cancel() {
        timer.withLock { $0?.cancel() }
    }
}

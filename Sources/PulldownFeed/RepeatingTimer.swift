import Dispatch
import Synchronization

/// A Dispatch timer that calls its handler on `queue` every `interval` seconds, the first time
/// one interval after it is made, until it is cancelled.
public final class RepeatingTimer: Sendable {
    private let source: Mutex<any DispatchSourceTimer>

    public init(every interval: Double, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: handler)
        timer.resume()
        source = Mutex(timer)
    }

    public func cancel() {
        source.withLock { $0.cancel() }
    }
}

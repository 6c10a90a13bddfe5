import Dispatch

/// Wakes streams a slice at a time with a short pause between slices: waking 10,000 streams
/// together would keep the server's threads sending for a while, and a request arriving
/// meanwhile (a page, /healthz) would wait behind all of them.
final class PacedWaker: Sendable {
    /// Streams woken at once.
    static let slice = 128
    /// The pause between slices.
    static let pause = DispatchTimeInterval.microseconds(1000)

    private let queue = DispatchQueue(label: "pulldown.live-events.wake")

    /// Wakes `sinks`. What they are sent is already queued in order, so a slice woken late
    /// still sends everything in order.
    func wake(_ sinks: [any EventSink]) {
        guard !sinks.isEmpty else { return }
        queue.async { self.wake(sinks, from: 0) }
    }

    private func wake(_ sinks: [any EventSink], from start: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        let end = min(sinks.count, start + Self.slice)
        for index in start..<end { sinks[index].wake() }
        guard end < sinks.count else { return }
        queue.asyncAfter(deadline: .now() + Self.pause) { self.wake(sinks, from: end) }
    }
}

import Dispatch

/// A value that lives on one serial queue. Every access checks that it runs there, so "only on
/// this queue" is enforced rather than promised in a comment; that check is what makes sharing
/// the box between threads sound.
final class QueueConfined<Value>: @unchecked Sendable {
    private let queue: DispatchQueue
    private var value: Value

    init(_ value: Value, on queue: DispatchQueue) {
        self.value = value
        self.queue = queue
    }

    func access<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        dispatchPrecondition(condition: .onQueue(queue))
        return try body(&value)
    }
}

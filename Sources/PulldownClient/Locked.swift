import Foundation

/// A value shared between tasks and URLSession's delegate queue, read and changed under a lock.
///
/// NSLock rather than Synchronization's Mutex: Mutex needs iOS 18, the library iOS 17.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

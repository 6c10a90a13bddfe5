import Foundation

/// A value behind a lock. Internal plumbing for the Sendable classes of this module.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only reached through `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

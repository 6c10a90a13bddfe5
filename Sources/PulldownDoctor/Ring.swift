/// The last `capacity` elements appended, oldest first: a timeline that never grows.
public struct Ring<Element: Sendable>: Sendable {
    public let capacity: Int
    private var storage: [Element] = []
    /// Where the next element goes once the ring is full.
    private var next = 0

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    public var count: Int { storage.count }

    public mutating func append(_ element: Element) {
        if storage.count < capacity {
            // Doubling, but never past the capacity: a full timeline holds 200, not 256.
            if storage.count == storage.capacity { storage.reserveCapacity(min(capacity, max(8, 2 * storage.count))) }
            storage.append(element)
        } else {
            storage[next] = element
            next = (next + 1) % capacity
        }
    }

    /// Oldest first.
    public var elements: [Element] {
        Array(storage[next...] + storage[..<next])
    }
}

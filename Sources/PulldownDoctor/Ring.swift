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

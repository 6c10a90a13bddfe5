/// A cache that keeps the most recently used entries within a total cost (bytes, say), and
/// drops the least recently used ones past it. A pure value: the caller holds the lock.
///
/// Entries form a doubly linked list threaded through arrays (slot indexes, not pointers), so a
/// hit and an eviction are O(1) and the cache allocates nothing per lookup.
struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    private(set) var totalCost = 0
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].value
    }

    /// Stores `value` as the most recently used, then drops the least recently used entries until
    /// the total cost fits. An entry costlier than the whole capacity is not kept.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= capacity else { return }
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
        while totalCost > capacity, let oldest { remove(nodes[oldest].key) }
    }

    mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= nodes[slot].cost
        free.append(slot)
    }

    /// Removes every entry for which `condition` holds.
    mutating func removeAll(where condition: (Key, Value) -> Bool) {
        let doomed = slots.compactMap { key, slot in condition(key, nodes[slot].value) ? key : nil }
        for key in doomed { remove(key) }
    }

    private mutating func moveToFront(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = nil
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if let newer { nodes[newer].older = older } else { newest = older }
        if let older { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }
}

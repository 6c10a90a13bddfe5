import PulldownHTTP

/// One-shot faults queued with `POST /api/demo/faults`: the next N requests of one kind fail with
/// a status, then they behave again. A pure value: `DemoControl` holds it, the middleware takes
/// from it.
struct FaultQueue: Equatable, Sendable {
    /// The kinds of request a fault can be aimed at; one kind's faults leave the others alone.
    enum Target: String, CaseIterable, Sendable {
        /// `POST /api/refresh`.
        case refresh
        /// `GET /api/items` (and `HEAD`).
        case page
        /// `POST /api/items`.
        case post
        /// `GET /api/events`.
        case events

        /// The kind of `method` `path`, nil for a request no fault is aimed at.
        init?(method: String, path: String) {
            switch (method, path) {
            case ("POST", "/api/refresh"): self = .refresh
            case ("GET", "/api/items"), ("HEAD", "/api/items"): self = .page
            case ("POST", "/api/items"): self = .post
            case ("GET", "/api/events"), ("HEAD", "/api/events"): self = .events
            default: return nil
            }
        }
    }

    struct Fault: Equatable, Sendable {
        var on: Target
        var status: Int
        /// Requests still to fail; never 0 in the queue.
        var count: Int
        /// Seconds the answers' `Retry-After` says; nil: the usual 1 (none for a 500).
        var retryAfter: Int? = nil
    }

    /// Oldest first: for one target, the faults fail its requests in the order they were queued.
    private(set) var pending: [Fault] = []

    mutating func add(_ fault: Fault) {
        guard fault.count > 0 else { return }
        pending.append(fault)
    }

    /// The fault the next request of `target` must fail with, counted off it; nil when none is
    /// pending for it.
    mutating func take(for target: Target) -> Fault? {
        guard let index = pending.firstIndex(where: { $0.on == target }) else { return nil }
        let fault = pending[index]
        pending[index].count -= 1
        if pending[index].count == 0 { pending.remove(at: index) }
        return fault
    }

    mutating func clear() {
        pending.removeAll()
    }
}

import PulldownHTTP

/// The validated parameters of `GET /api/items`.
struct ItemsQuery: Equatable {
    enum Cursor: Hashable {
        case newest
        case before(Int64)
        case after(Int64)
    }

    let limit: Int
    let cursor: Cursor

    /// Parameters that belong to the demo knobs and are checked there.
    static let knobNames: Set<String> = ["_delay", "_fail"]
    static let names: Set<String> = ["limit", "before", "after"]

    /// Reads the query, collecting every problem so that one 400 names them all.
    static func parse(_ query: QueryParameters, defaultLimit: Int) throws(Problem) -> ItemsQuery {
        var invalid: [Problem.InvalidParam] = []
        func single(_ name: String) -> String? {
            let first = query.first(name)
            if first != nil, query.pairs.lazy.filter({ $0.name == name }).dropFirst().first != nil {
                invalid.append(.init(name: name, reason: "must be given at most once"))
            }
            return first
        }
        func integer(_ name: String, in range: ClosedRange<Int64>) -> Int64? {
            guard let text = single(name) else { return nil }
            guard let value = DecimalDigits.parse(text), range.contains(value) else {
                invalid.append(.init(name: name, reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)"))
                return nil
            }
            return value
        }

        func isUnknown(_ name: String) -> Bool { !names.contains(name) && !knobNames.contains(name) }
        // Names are listed (each once) only when one is unknown: the usual query has none.
        if query.pairs.contains(where: { isUnknown($0.name) }) {
            for name in query.names where isUnknown(name) {
                invalid.append(.init(name: name, reason: "is not a parameter of this endpoint (limit, before, after)"))
            }
        }
        let limit = integer("limit", in: 1...Int64(Configuration.maxPageSize)).map(Int.init)
        let before = integer("before", in: 1...Int64.max)
        let after = integer("after", in: 0...Int64.max)
        if query.first("before") != nil && query.first("after") != nil {
            invalid.append(.init(name: "after", reason: "cannot be combined with before"))
        }
        guard invalid.isEmpty else {
            throw Problem.badRequest("The query has invalid parameters.", invalidParams: invalid)
        }
        let cursor: Cursor = before.map { .before($0) } ?? after.map { .after($0) } ?? .newest
        return ItemsQuery(limit: limit ?? defaultLimit, cursor: cursor)
    }
}

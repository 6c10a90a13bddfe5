import InvalidInput
import PulldownHTTP

/// Reads a request's query into `InvalidParameters`: an endpoint's parameters at most once each,
/// numbers as plain decimal digits. A name the endpoint does not know is ignored, as HTTP APIs
/// do: clients add cache-busters (`_=1733300000`, `t=1`) that mean nothing to the server.
struct QueryReader {
    let query: QueryParameters
    var invalid = InvalidParameters()

    init(_ query: QueryParameters) {
        self.query = query
    }

    /// The parameter's value; given more than once is noted (`repeatable` reads the first).
    mutating func value(_ name: String, repeatable: Bool = false) -> String? {
        let first = query.first(name)
        if !repeatable, first != nil, query.pairs.lazy.filter({ $0.name == name }).dropFirst().first != nil {
            invalid.add(name, InvalidParameters.Reason.repeated)
        }
        return first
    }

    /// An integer parameter within `range`.
    mutating func integer(_ name: String, in range: ClosedRange<Int64>, repeatable: Bool = false) -> Int64? {
        guard let text = value(name, repeatable: repeatable) else { return nil }
        guard let number = DecimalDigits.parse(text), range.contains(number) else {
            invalid.add(name, InvalidParameters.Reason.integer(in: range))
            return nil
        }
        return number
    }

    /// An integer parameter that must be one of `allowed`.
    mutating func integer(_ name: String, oneOf allowed: [Int], repeatable: Bool = false) -> Int? {
        guard let text = value(name, repeatable: repeatable) else { return nil }
        guard let number = DecimalDigits.parse(text).flatMap({ Int(exactly: $0) }), allowed.contains(number) else {
            invalid.add(name, InvalidParameters.Reason.oneOf(allowed))
            return nil
        }
        return number
    }
}

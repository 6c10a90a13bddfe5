import InvalidInput
import PulldownHTTP

/// How the API refuses what `InvalidParameters` collected: one 400 naming every parameter.
extension InvalidParameters {
    /// Throws the 400 naming every parameter noted, if any; `detail` says where they were.
    func check(_ detail: String) throws(Problem) {
        guard all.isEmpty else { throw problem(detail) }
    }

    /// The 400 naming every parameter noted; for a `guard` that also unwraps a required value
    /// (missing, it was noted as required).
    func problem(_ detail: String) -> Problem {
        Problem.badRequest(detail, invalidParams: all)
    }
}

extension InvalidParameters.Reason {
    /// A body's `Content-Type` when it is not JSON.
    static let applicationJSON = "must be application/json"

    /// Written as the command line's options are (`ConfigurationParser.format`).
    static func number(in range: ClosedRange<Double>) -> String {
        "must be a number from \(ConfigurationParser.format(range.lowerBound)) to \(ConfigurationParser.format(range.upperBound))"
    }
}

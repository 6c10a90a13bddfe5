import InvalidInput
import PulldownHTTP

/// Every invalid parameter of one request, collected so that one 400 names them all in
/// `invalid_params`: the one way the API checks what a client sent, in the query, a header or
/// the body. Each reason is written once, here.
struct InvalidParameters {
    private(set) var all: [InvalidParam] = []

    mutating func add(_ name: String, _ reason: String) {
        all.append(InvalidParam(name: name, reason: reason))
    }

    /// The value read, or nil with its problem noted.
    mutating func take<Value>(_ read: Result<Value?, InvalidParam>) -> Value? {
        switch read {
        case .success(let value):
            return value
        case .failure(let param):
            all.append(param)
            return nil
        }
    }

    func contains(_ name: String) -> Bool {
        all.contains { $0.name == name }
    }

    /// Throws the 400 naming every parameter noted, if any; `detail` says where they were.
    func check(_ detail: String) throws(Problem) {
        guard all.isEmpty else { throw Problem.badRequest(detail, invalidParams: all) }
    }

    enum Reason {
        static func integer(in range: ClosedRange<Int64>) -> String {
            "must be an integer from \(range.lowerBound) to \(range.upperBound)"
        }
        static func number(in range: ClosedRange<Double>) -> String {
            "must be a number from \(ConfigurationParser.format(range.lowerBound)) to \(ConfigurationParser.format(range.upperBound))"
        }
        static func oneOf(_ values: [Int]) -> String {
            oneOf(values.map(String.init))
        }
        static func oneOf(_ listed: [String]) -> String {
            "must be " + listed.dropLast().joined(separator: ", ") + " or " + listed.last!
        }
        static let repeated = "must be given at most once"
        static let required = "is required"
        static let string = "must be a string"
        static let unknownField = "is not a known field"
    }
}

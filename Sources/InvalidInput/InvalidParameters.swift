/// Every invalid parameter of one request, collected so that one 400 names them all in
/// `invalid_params`: the one way the API checks what a client sent, in the query, a header or
/// the body. Each reason is written once: here when more than one field or rule gives it, beside
/// its rule when only that rule does (`UserFields.Reason`). Below HTTP, so a data file's entries are
/// checked with it too; the 400 is the API's (`check`).
public struct InvalidParameters: Sendable {
    public private(set) var all: [InvalidParam] = []

    public init() {}
}

public extension InvalidParameters {
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

    /// The value read; when it is missing, `name` is noted as required (unless its problem is
    /// already noted).
    mutating func required<Value>(_ name: String, _ read: Result<Value?, InvalidParam>) -> Value? {
        let value = take(read)
        if value == nil && !contains(name) { add(name, Reason.required) }
        return value
    }

    func contains(_ name: String) -> Bool {
        all.contains { $0.name == name }
    }

    enum Reason {
        public static func integer(in range: ClosedRange<Int64>) -> String {
            "must be an integer from \(range.lowerBound) to \(range.upperBound)"
        }
        public static func oneOf(_ values: [Int]) -> String {
            oneOf(values.map(String.init))
        }
        public static func oneOf(_ listed: [String]) -> String {
            guard let last = listed.last else { return "cannot be given" }
            return listed.count == 1 ? "must be \(last)" : "must be " + listed.dropLast().joined(separator: ", ") + " or " + last
        }
        /// A text's length once trimmed; a range from 0 says only its upper bound.
        public static func trimmed(length range: ClosedRange<Int>) -> String {
            let bounds = range.lowerBound == 0 ? "at most \(range.upperBound)" : "\(range.lowerBound) to \(range.upperBound)"
            return "must be \(bounds) characters after trimming"
        }
        /// C0 controls in a text; newline and tab may be allowed where it has lines.
        public static func controlCharacters(allowingLineBreaks: Bool) -> String {
            "must not contain control characters" + (allowingLineBreaks ? " other than newline and tab" : "")
        }
        public static let repeated = "must be given at most once"
        public static let required = "is required"
        public static let string = "must be a string"
        public static let unknownField = "is not a known field"
    }
}

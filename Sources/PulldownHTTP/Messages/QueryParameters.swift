/// The parameters of a query string, in the order they were sent.
///
/// Rules, so that every handler sees the same thing:
/// - `a=1&a=2` keeps both values, in order (`values(for:)`); `first(_:)` gives the first.
/// - `a=` and a bare `a` both give `a` with the empty string as its value.
/// - Empty pieces (`&&`, a trailing `&`) are skipped.
/// - Names and values are percent-decoded and `+` means a space.
public struct QueryParameters: Sendable, Equatable {
    /// Every name/value pair, decoded, in request order.
    public let pairs: [(name: String, value: String)]

    public init(pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// Parses the part of a request target after `?`. Returns nil when an escape is malformed
    /// or a decoded piece is not UTF-8.
    init?<S: StringProtocol>(parsing query: S) {
        var text = String(query)
        guard let parsed = text.withUTF8({ QueryParameters(bytes: $0) }) else { return nil }
        self = parsed
    }

    /// The same, from the query's bytes.
    init?(bytes query: UnsafeBufferPointer<UInt8>) {
        var pairs: [(name: String, value: String)] = []
        for piece in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            guard let name = PercentDecoding.decode(bytes: piece[..<(equals ?? piece.endIndex)], plusAsSpace: true),
                  let value = PercentDecoding.decode(bytes: equals.map { piece[($0 + 1)...] } ?? piece[piece.endIndex...],
                                                     plusAsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// Every value given for `name`, in order.
    func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The first value given for `name`, or nil when it is absent.
    public func first(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The distinct names, in order of first appearance.
    var names: [String] {
        var seen = Set<String>()
        return pairs.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}

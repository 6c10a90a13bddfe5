/// An ordered list of header fields with case-insensitive look-up by name.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Empty, with room for `minimumCapacity` fields: a request's headers are added one by one.
    init(minimumCapacity: Int) {
        fields = []
        fields.reserveCapacity(minimumCapacity)
    }

    /// The first value for `name`, compared without regard to case.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Adds a field, keeping any earlier ones of the same name (for `Set-Cookie`, `Vary`, `Link`).
    public mutating func add(_ name: String, _ value: String) {
        // An answer's fields are added one by one; room for eight at the first growth saves
        // the reallocations of growing one field at a time.
        if fields.count == fields.capacity { fields.reserveCapacity(Swift.max(8, 2 * fields.count)) }
        fields.append((name, value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        if contains(name) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }
        add(name, value)
    }

    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive comparison, which is what header names need.
    ///
    /// Header names are native strings, so both sides are compared as contiguous bytes; the
    /// byte-by-byte walk through `UTF8View` is the fallback (it was a per-request cost in perf).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let fast = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in
                for index in 0..<a.count where lowercaseASCII(a[index]) != lowercaseASCII(b[index]) {
                    return false
                }
                return true
            }
        }
        if let fast = fast ?? nil { return fast }
        return zip(a, b).allSatisfy { lowercaseASCII($0) == lowercaseASCII($1) }
    }
}

@inline(__always) private func lowercaseASCII(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
}

import CJansson
import Foundation
import InvalidInput
import ItemFields
import PulldownHTTP

/// A parsed JSON request body, checked field by field so every 400 can name what is wrong.
///
/// Parsing is Jansson's: strict RFC 8259 (no trailing commas, UTF-8 only, no NUL in strings),
/// a repeated name refused, nesting bounded. The top-level fields are read by kind; the parsed
/// object stays at hand for `userFields(core:reserved:into:)`.
struct JSONBody {
    private let fields: [String: JSONField]
    private let root: ParsedJSON?

    /// Owns one reference to a parsed value, given back when the body goes.
    final class ParsedJSON {
        let value: UnsafeMutablePointer<json_t>
        init(_ value: UnsafeMutablePointer<json_t>) { self.value = value }
        deinit { json_decref(value) }
    }

    /// The kind and, for scalars the API reads, the value of one top-level field.
    enum JSONField: Equatable {
        case null, bool(Bool), integer(Int64), real(Double), string(String), array, object
    }

    /// Parses an object body. An empty body counts as `{}` when `emptyAllowed`.
    /// Throws a 400 problem for a wrong content type, malformed JSON or a non-object.
    init(_ request: HTTPRequest, emptyAllowed: Bool) throws(Problem) {
        let isBlank = request.body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if isBlank && emptyAllowed {
            fields = [:]
            root = nil
            return
        }
        guard Self.isJSON(contentType: request.headers["Content-Type"]) else {
            throw Problem.badRequest("The body must be JSON, sent with Content-Type: application/json.",
                                     invalidParams: [.init(name: "Content-Type", reason: InvalidParameters.Reason.applicationJSON)])
        }
        var error = json_error_t()
        let parsed = request.body.withUnsafeBytes { bytes in
            json_loadb(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count,
                       Int(JSON_REJECT_DUPLICATES), &error)
        }
        guard let root = parsed else {
            throw Problem.badRequest("The body is not well-formed JSON: \(error.message) "
                                     + "(line \(error.line), column \(error.column)).")
        }
        self.root = ParsedJSON(root)
        guard root.pointee.type == JSON_OBJECT else {
            throw Problem.badRequest("The body must be a JSON object.")
        }
        fields = Self.fields(of: root)
    }

    /// An object inside a parsed document (a script's step), read as a body is; it holds a
    /// reference of its own. Nil when `value` is not an object.
    init?(object value: UnsafeMutablePointer<json_t>) {
        guard value.pointee.type == JSON_OBJECT else { return nil }
        root = ParsedJSON(json_incref(value)!)
        fields = Self.fields(of: value)
    }

    /// The member `name` when it is an object, read as a body; nil when absent, a failure when
    /// it is something else.
    func object(_ name: String) -> Result<JSONBody?, InvalidParam> {
        guard fields[name] != nil else { return .success(nil) }
        guard let root, let member = json_object_get(root.value, name), let body = JSONBody(object: member) else {
            return .failure(.init(name: name, reason: "must be an object"))
        }
        return .success(body)
    }

    /// The elements of the member `name` when it is an array; nil when absent.
    func array(_ name: String) -> Result<[UnsafeMutablePointer<json_t>]?, InvalidParam> {
        guard fields[name] != nil else { return .success(nil) }
        guard let root, let member = json_object_get(root.value, name), member.pointee.type == JSON_ARRAY else {
            return .failure(.init(name: name, reason: "must be an array"))
        }
        return .success((0..<json_array_size(member)).compactMap { json_array_get(member, $0) })
    }

    private static func fields(of object: UnsafeMutablePointer<json_t>) -> [String: JSONField] {
        var fields: [String: JSONField] = [:]
        var iterator = json_object_iter(object)
        while let current = iterator {
            if let key = json_object_iter_key(current), let value = json_object_iter_value(current) {
                fields[String(cString: key)] = Self.field(value)
            }
            iterator = json_object_iter_next(object, current)
        }
        return fields
    }

    /// `application/json` or any `+json` type, parameters and case aside.
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        // The exact common spelling first: this runs for every refresh.
        if contentType == MediaTypes.json { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
        return mediaType == MediaTypes.json || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// Notes every field not in `known`: a misspelt field should not be ignored. `known` is a
    /// handful of names, looked through without hashing.
    func rejectUnknown(_ known: [String], into invalid: inout InvalidParameters) {
        for name in fields.keys.filter({ !known.contains($0) }).sorted() {
            invalid.add(name, InvalidParameters.Reason.unknownField)
        }
    }

    /// The body's fields other than `core`, checked by `UserFields` (problems noted), as compact
    /// JSON object text; empty when there are none.
    func userFields(core: [String], reserved: [String], into invalid: inout InvalidParameters) -> String {
        guard let root else { return "" }
        return UserFields.check(root.value, core: core, reserved: reserved, into: &invalid)
    }

    /// An optional integer field within `range`; null counts as absent where the document
    /// allows it (`nullable`), and is refused elsewhere.
    func integer(_ name: String, in range: ClosedRange<Int64>, nullable: Bool = false) -> Result<Int64?, InvalidParam> {
        switch fields[name] {
        case nil: return .success(nil)
        case .null? where nullable: return .success(nil)
        case .integer(let value)? where range.contains(value): return .success(value)
        case .real(let value)? where Int64(exactly: value).map(range.contains) == true:
            // JSON does not tell 13 from 13.0, and JSON Schema counts both as integers.
            return .success(Int64(exactly: value))
        default: return .failure(.init(name: name, reason: InvalidParameters.Reason.integer(in: range)))
        }
    }

    /// An optional integer field that must be one of `allowed`.
    func integer(_ name: String, oneOf allowed: [Int]) -> Result<Int?, InvalidParam> {
        let refused = InvalidParam(name: name, reason: InvalidParameters.Reason.oneOf(allowed))
        guard case .success(let value) = integer(name, in: Int64.min...Int64.max) else { return .failure(refused) }
        guard let value else { return .success(nil) }
        return allowed.contains { Int64($0) == value } ? .success(Int(value)) : .failure(refused)
    }

    /// An optional string field that must be one of `allowed`.
    func string(_ name: String, oneOf allowed: [String]) -> Result<String?, InvalidParam> {
        let refused = InvalidParam(name: name, reason: InvalidParameters.Reason.oneOf(allowed))
        guard case .success(let value) = string(name) else { return .failure(refused) }
        guard let value else { return .success(nil) }
        return allowed.contains(value) ? .success(value) : .failure(refused)
    }

    /// An optional number field within `range`; null counts as absent where `nullable`.
    func number(_ name: String, in range: ClosedRange<Double>, nullable: Bool = false) -> Result<Double?, InvalidParam> {
        switch fields[name] {
        case nil: return .success(nil)
        case .null? where nullable: return .success(nil)
        case .integer(let value)? where range.contains(Double(value)): return .success(Double(value))
        case .real(let value)? where range.contains(value): return .success(value)
        default: return .failure(.init(name: name, reason: InvalidParameters.Reason.number(in: range)))
        }
    }

    /// Whether the field is there, whatever its value.
    func has(_ name: String) -> Bool {
        fields[name] != nil
    }

    /// The whole body as compact JSON text (`{}` for an empty one).
    var compactText: String {
        guard let root, let dumped = json_dumps(root.value, Int(JSON_COMPACT)) else { return "{}" }
        defer { free(dumped) }
        return String(cString: dumped)
    }

    /// Whether the field is there with the value null (a merge patch's "back to the default").
    func isNull(_ name: String) -> Bool {
        fields[name] == .null
    }

    /// An optional string field; null counts as absent where `nullable`.
    func string(_ name: String, nullable: Bool = false) -> Result<String?, InvalidParam> {
        switch fields[name] {
        case nil: return .success(nil)
        case .null? where nullable: return .success(nil)
        case .string(let value)?: return .success(value)
        default: return .failure(.init(name: name, reason: InvalidParameters.Reason.string))
        }
    }

    private static func field(_ value: UnsafeMutablePointer<json_t>) -> JSONField {
        switch value.pointee.type {
        case JSON_NULL: return .null
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        case JSON_INTEGER: return .integer(Int64(json_integer_value(value)))
        case JSON_REAL: return .real(json_real_value(value))
        case JSON_STRING: return .string(UserFields.string(value) ?? "")
        case JSON_ARRAY: return .array
        default: return .object
        }
    }
}

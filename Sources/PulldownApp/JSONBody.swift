import Foundation
import PulldownHTTP

/// A parsed JSON request body, checked field by field so every 400 can name what is wrong.
struct JSONBody {
    private let fields: [String: JSONValue]

    /// Parses an object body. An empty body counts as `{}` when `emptyAllowed`.
    /// Throws a 400 problem for a wrong content type, malformed JSON or a non-object.
    init(_ request: HTTPRequest, emptyAllowed: Bool) throws(Problem) {
        let isBlank = request.body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if isBlank && emptyAllowed {
            fields = [:]
            return
        }
        let contentType = request.headers["Content-Type"]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard contentType == "application/json" || contentType?.hasSuffix("+json") == true else {
            throw Problem.badRequest("The body must be JSON, sent with Content-Type: application/json.",
                                     invalidParams: [.init(name: "Content-Type", reason: "must be application/json")])
        }
        let value: JSONValue
        do {
            // UTF-8 only (RFC 8259): Foundation would also take UTF-16 and UTF-32, whose ASCII
            // characters carry NUL bytes, which no UTF-8 JSON text can contain.
            guard !request.body.contains(0), String(validating: request.body, as: UTF8.self) != nil,
                  !Self.hasTrailingComma(request.body) else { throw Problem.badRequest("") }
            value = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
        } catch {
            throw Problem.badRequest("The body is not well-formed JSON (or not UTF-8).")
        }
        guard case .object(let object) = value else {
            throw Problem.badRequest("The body must be a JSON object.")
        }
        // Foundation keeps one of two equal names silently; which one a proxy or a log reader
        // would see is anyone's guess, so a repeated name is refused.
        guard Self.topLevelNameCount(request.body) == object.count else {
            throw Problem.badRequest("The body names a field more than once.")
        }
        fields = object
    }

    /// How many names the top-level object has, repeats included (the body is well-formed JSON).
    static func topLevelNameCount(_ bytes: [UInt8]) -> Int {
        var inString = false, escaped = false, depth = 0, expectingName = false, count = 0
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x7B, 0x5B: // { [
                depth += 1
                expectingName = depth == 1 && byte == 0x7B
            case 0x7D, 0x5D: depth -= 1
            case 0x2C: if depth == 1 { expectingName = true }
            case 0x3A: if depth == 1 { expectingName = false }
            case 0x22:
                inString = true
                if depth == 1 && expectingName { count += 1; expectingName = false }
            default: break
            }
        }
        return count
    }

    /// Whether a `,` comes right before a `}` or `]` outside strings. Foundation's parser accepts
    /// that (`{"title": "x",}`), RFC 8259 does not, and neither does this API.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false, escaped = false, afterComma = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case 0x7D, 0x5D: if afterComma { return true }
            case 0x22: inString = true
            default: break
            }
            afterComma = byte == 0x2C
        }
        return false
    }

    /// Throws a 400 naming every field not in `known`: a misspelt field should not be ignored.
    func rejectUnknown(_ known: Set<String>) throws(Problem) {
        let unknown = fields.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw Problem.badRequest("The body has fields this endpoint does not know.",
                                     invalidParams: unknown.map { .init(name: $0, reason: "is not a known field") })
        }
    }

    /// An optional integer field within `range`; null counts as absent.
    func integer(_ name: String, in range: ClosedRange<Int64>) -> Result<Int64?, Problem.InvalidParam> {
        switch fields[name] {
        case nil, .null?: return .success(nil)
        case .integer(let value)? where range.contains(value): return .success(value)
        default: return .failure(.init(name: name, reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)"))
        }
    }

    /// An optional string field.
    func string(_ name: String) -> Result<String?, Problem.InvalidParam> {
        switch fields[name] {
        case nil, .null?: return .success(nil)
        case .string(let value)?: return .success(value)
        default: return .failure(.init(name: name, reason: "must be a string"))
        }
    }
}

/// Any JSON value; numbers keep whether they were integers.
enum JSONValue: Decodable {
    case null, bool(Bool), integer(Int64), number(Double), string(String)
    case array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}

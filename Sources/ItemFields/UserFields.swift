import CJansson
import Foundation
import InvalidInput

/// The rules for an item's own fields, beside `title`, `body` and `author`: `avatar`, `url` and
/// `image` have a shape a page can rely on (an image states its size, so the space is reserved
/// before it arrives); every other field is kept as given, within `maximumBytes` and
/// `maximumDepth`. The one check for a posted item and an entry of a data file.
public enum UserFields {
    /// The compact JSON of all of an item's own fields together.
    static let maximumBytes = 16 * 1024
    /// Levels of objects and arrays, the item itself counting as one.
    public static let maximumDepth = 8
    static let maximumURLLength = 2048
    static let maximumAltLength = 1000
    static let imageSides: ClosedRange<Int64> = 1...100_000
    /// The fields of `image`.
    static let imageKeys = ["url", "width", "height", "alt"]

    public enum Reason {
        public static let link = "must be an http(s) URL or a path starting with / (at most \(maximumURLLength) characters)"
        public static let object = "must be an object with url, width and height"
        static let assigned = "is assigned by the server"
        public static let alt = "must be a string of at most \(maximumAltLength) characters"
        public static let tooLarge = "the item's own fields must come to at most \(maximumBytes) bytes of JSON"
        public static let tooDeep = "must nest at most \(maximumDepth) levels of objects and arrays"
    }

    /// Checks the fields of `object` other than `core` and `reserved` (refused: the server sets
    /// them), noting each problem under its path (`image.width`) with `prefix` before it; returns
    /// them as compact JSON object text, empty when there are none.
    public static func check(_ object: UnsafeMutablePointer<json_t>, core: [String], reserved: [String],
                      prefix: String = "", into invalid: inout InvalidParameters) -> String {
        guard let own = json_object() else { return "" }
        defer { json_decref(own) }
        var iterator = json_object_iter(object)
        while let current = iterator {
            defer { iterator = json_object_iter_next(object, current) }
            guard let cKey = json_object_iter_key(current), let value = json_object_iter_value(current) else { continue }
            let key = String(cString: cKey)
            if core.contains(key) { continue }
            if reserved.contains(key) { invalid.add(prefix + key, Reason.assigned); continue }
            switch key {
            case "avatar", "url":
                if !isLink(value) { invalid.add(prefix + key, Reason.link) }
            case "image":
                checkImage(value, name: prefix + key, into: &invalid)
            default:
                if depth(of: value) + 1 > maximumDepth { invalid.add(prefix + key, Reason.tooDeep) }
            }
            json_object_set(own, cKey, value)
        }
        guard json_object_size(own) > 0, let dumped = json_dumps(own, Int(JSON_COMPACT)) else { return "" }
        defer { free(dumped) }
        let text = htmlSafe(String(cString: dumped))
        if text.utf8.count > maximumBytes { invalid.add(prefix.isEmpty ? "item" : String(prefix.dropLast()), Reason.tooLarge) }
        return text
    }

    /// `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`, as `JSONWriter` writes them: outside
    /// strings JSON has none, and escaped they can never close a script element that a client
    /// pastes an item's JSON into.
    static func htmlSafe(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 }) else { return json }
        return json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    /// A string that is an absolute http(s) URL or a path on this server; null counts as absent.
    public static func isLink(_ value: UnsafeMutablePointer<json_t>) -> Bool {
        if value.pointee.type == JSON_NULL { return true }
        guard let text = string(value) else { return false }
        return isLink(text)
    }

    public static func isLink(_ text: String) -> Bool {
        guard !text.isEmpty, text.unicodeScalars.count <= maximumURLLength,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return false }
        // Bytes, not characters: "/" and a combining mark after it are one Swift Character.
        let bytes = Array(text.utf8.prefix(8)).map { $0 | 0x20 }
        let slash = UInt8(ascii: "/")
        return bytes.starts(with: Array("https://".utf8)) || bytes.starts(with: Array("http://".utf8))
            || (text.utf8.first == slash && text.utf8.dropFirst().first != slash)
    }

    private static func checkImage(_ value: UnsafeMutablePointer<json_t>, name: String, into invalid: inout InvalidParameters) {
        if value.pointee.type == JSON_NULL { return }
        guard value.pointee.type == JSON_OBJECT else { return invalid.add(name, Reason.object) }
        var iterator = json_object_iter(value)
        while let current = iterator {
            if let key = json_object_iter_key(current).map({ String(cString: $0) }), !imageKeys.contains(key) {
                invalid.add("\(name).\(key)", InvalidParameters.Reason.unknownField)
            }
            iterator = json_object_iter_next(value, current)
        }
        if let url = json_object_get(value, "url") {
            if url.pointee.type == JSON_NULL || !isLink(url) { invalid.add("\(name).url", Reason.link) }
        } else {
            invalid.add("\(name).url", InvalidParameters.Reason.required)
        }
        for side in ["width", "height"] {
            guard let number = json_object_get(value, side) else {
                invalid.add("\(name).\(side)", InvalidParameters.Reason.required)
                continue
            }
            if integer(number).map(imageSides.contains) != true { invalid.add("\(name).\(side)", InvalidParameters.Reason.integer(in: imageSides)) }
        }
        if let alt = json_object_get(value, "alt"), alt.pointee.type != JSON_NULL {
            if (string(alt)?.unicodeScalars.count ?? .max) > maximumAltLength { invalid.add("\(name).alt", Reason.alt) }
        }
    }

    /// Levels of arrays and objects inside `value` (0 for a scalar).
    private static func depth(of value: UnsafeMutablePointer<json_t>) -> Int {
        switch value.pointee.type {
        case JSON_ARRAY:
            var deepest = 0
            for index in 0..<json_array_size(value) {
                if let element = json_array_get(value, index) { deepest = max(deepest, depth(of: element)) }
                if deepest >= maximumDepth { break }
            }
            return deepest + 1
        case JSON_OBJECT:
            var deepest = 0
            var iterator = json_object_iter(value)
            while let current = iterator, deepest < maximumDepth {
                if let element = json_object_iter_value(current) { deepest = max(deepest, depth(of: element)) }
                iterator = json_object_iter_next(value, current)
            }
            return deepest + 1
        default:
            return 0
        }
    }

    /// The text of a JSON string, nil for any other kind.
    public static func string(_ value: UnsafeMutablePointer<json_t>) -> String? {
        guard value.pointee.type == JSON_STRING else { return nil }
        let bytes = UnsafeRawBufferPointer(start: json_string_value(value), count: json_string_length(value))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON integer, or a real with an integral value (JSON does not tell 13 from 13.0).
    public static func integer(_ value: UnsafeMutablePointer<json_t>) -> Int64? {
        switch value.pointee.type {
        case JSON_INTEGER: return Int64(json_integer_value(value))
        case JSON_REAL: return Int64(exactly: json_real_value(value))
        default: return nil
        }
    }
}

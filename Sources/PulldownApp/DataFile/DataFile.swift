import CJansson
import Foundation
import PulldownFeed

/// A `--data` file read into items: a JSON array of items, an object with an `items` array, or
/// one item object a line (NDJSON). Parsed by Jansson, as request bodies are: strict JSON,
/// UTF-8 checked, repeated names refused, nesting bounded. Any problem is one `DataFileError`
/// naming the file and where: the line and column for malformed JSON, the entry and the field
/// otherwise.
struct DataFile {
    let path: String
    let entries: [ImportedItem]
    /// Line of each entry in the file, for NDJSON only.
    let lines: [Int]?
    let hash: [UInt8]
    /// The pictures it names by relative paths.
    let pictures: DataPictures

    /// The fields of an entry the feed reads; any other is the item's own (`UserFields`).
    static let itemFields = ["title", "body", "author", "createdAt"]

    init(path: String) throws(DataFileError) {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw DataFileError(path: path, "cannot be read: \((error as NSError).localizedDescription)")
        }
        hash = Feed.contentHash(bytes)
        let documents = try Self.documents(bytes, path: path)
        lines = documents.lines
        defer { documents.values.forEach { json_decref($0) } }
        var entries: [ImportedItem] = []
        entries.reserveCapacity(documents.values.count)
        var pictures = DataPictures(dataFile: path)
        for (index, value) in documents.values.enumerated() {
            let place = Self.place(index, lines: documents.lines)
            if value.pointee.type == JSON_OBJECT, let refused = pictures.resolve(in: value) {
                throw DataFileError(path: path, "\(place): \(refused) \(DataPictures.reason)")
            }
            entries.append(try Self.entry(value, place: place, path: path))
        }
        self.entries = entries
        self.pictures = pictures
    }

    /// The message for a feed's refusal of entry `index`.
    func describe(_ error: ImportError) -> DataFileError {
        switch error {
        case .invalidEntry(let index, let errors):
            let first = errors.first.map { "\($0.name) \($0.reason)" } ?? "is invalid"
            return DataFileError(path: path, "\(Self.place(index, lines: lines)): \(first)")
        case .storeHoldsOtherItems(let fromAnotherFile):
            let held = fromAnotherFile ? "items from a different data file" : "items that did not come from a data file (the demo seed or posts)"
            return DataFileError(path: path, "the store already holds \(held); start with --reset to empty it and import this file")
        }
    }

    static func place(_ index: Int, lines: [Int]?) -> String {
        if let lines { return "entry \(index) (line \(lines[index]))" }
        return "entry \(index)"
    }

    /// The top-level values that are entries, each holding one reference, with NDJSON lines.
    private static func documents(_ bytes: [UInt8], path: String) throws(DataFileError) -> (values: [UnsafeMutablePointer<json_t>], lines: [Int]?) {
        let first = bytes.first { !isSpace($0) }
        if first == UInt8(ascii: "[") {
            let root = try parse(bytes[...], path: path, lineOffset: 0)
            defer { json_decref(root) }
            return (elements(of: root), nil)
        }
        guard first == UInt8(ascii: "{") else {
            throw DataFileError(path: path, "line 1: not a JSON array of items, an object with an items array, or one item object a line")
        }
        if let whole = try? parse(bytes[...], path: path, lineOffset: 0) {
            defer { json_decref(whole) }
            guard let items = json_object_get(whole, "items") else { return ([json_incref(whole)!], nil) }
            guard items.pointee.type == JSON_ARRAY else { throw DataFileError(path: path, "items must be an array") }
            return (elements(of: items), nil)
        }
        // Not one document: NDJSON if its first line is an object by itself; else one document
        // over many lines, whose own error is the one to report.
        let lineEnd = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        guard let firstLine = try? parse(bytes[..<lineEnd], path: path, lineOffset: 0) else {
            json_decref(try parse(bytes[...], path: path, lineOffset: 0))
            throw DataFileError(path: path, "line 1: malformed JSON")
        }
        json_decref(firstLine)
        var values: [UnsafeMutablePointer<json_t>] = []
        var lines: [Int] = []
        var start = bytes.startIndex
        var line = 1
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let text = bytes[start..<end]
            if !text.allSatisfy(isSpace) {
                do {
                    values.append(try parse(text, path: path, lineOffset: line - 1))
                } catch {
                    values.forEach { json_decref($0) }
                    throw error
                }
                lines.append(line)
            }
            start = end + 1
            line += 1
        }
        return (values, lines)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func elements(of array: UnsafeMutablePointer<json_t>) -> [UnsafeMutablePointer<json_t>] {
        (0..<json_array_size(array)).compactMap { json_array_get(array, $0).flatMap { json_incref($0) } }
    }

    private static func parse(_ bytes: ArraySlice<UInt8>, path: String, lineOffset: Int) throws(DataFileError) -> UnsafeMutablePointer<json_t> {
        var error = json_error_t()
        let parsed = bytes.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_REJECT_DUPLICATES), &error)
        }
        guard let parsed else {
            throw DataFileError(path: path, "line \(Int(error.line) + lineOffset), column \(error.column): "
                                + "malformed JSON: \(JSONBody.text(of: error))")
        }
        return parsed
    }

    private static func entry(_ value: UnsafeMutablePointer<json_t>, place: String, path: String) throws(DataFileError) -> ImportedItem {
        guard value.pointee.type == JSON_OBJECT else { throw DataFileError(path: path, "\(place): must be a JSON object") }
        var invalid = InvalidParameters()
        let userFields = UserFields.check(value, core: itemFields, reserved: ["id"], into: &invalid)
        func text(_ name: String) -> String? {
            guard let field = json_object_get(value, name), field.pointee.type != JSON_NULL else { return nil }
            guard let string = UserFields.string(field) else {
                invalid.add(name, InvalidParameters.Reason.string)
                return nil
            }
            return string
        }
        let title = text("title")
        if title == nil && !invalid.contains("title") { invalid.add("title", InvalidParameters.Reason.required) }
        let body = text("body"), author = text("author")
        var createdAt: Date?
        if let stamp = text("createdAt") {
            createdAt = RFC3339.date(stamp)
            if createdAt == nil { invalid.add("createdAt", "must be an RFC 3339 date-time like 2026-05-01T12:00:00Z") }
        }
        if let problem = invalid.all.first {
            throw DataFileError(path: path, "\(place): \(problem.name) \(problem.reason)")
        }
        return ImportedItem(new: NewItem(title: title!, body: body ?? "", author: author, userFields: userFields),
                            createdAt: createdAt)
    }
}

/// Why a data file cannot be used: one line, naming the file (exit code 1).
struct DataFileError: Error, CustomStringConvertible {
    let description: String

    init(path: String, _ problem: String) {
        description = "\(path): \(problem)"
    }
}

/// RFC 3339 date-times, with or without fractional seconds, any offset.
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}

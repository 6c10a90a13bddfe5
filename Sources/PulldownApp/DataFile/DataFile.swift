import CJansson
import Foundation
import PulldownFeed

/// A `--data` file as a source of items: a JSON array of items, an object of collections (an
/// `items` array, or json-server's `db.json`, whose first array of objects, or the one
/// `--collection` names, holds the items), or one item object a line (NDJSON). Read as a stream (`DataFileReader`): each entry is parsed
/// by Jansson on its own, as request bodies are (strict JSON, UTF-8 checked, repeated names
/// refused), so memory stays bounded whatever the size of the file; only where each entry lies
/// is kept, to read it again when the feed stores it.
///
/// Any problem is a `DataFileError` naming the file and where: the line and column for malformed
/// JSON, the entry and the field otherwise.
final class DataFile: ImportSource {
    let reference: DataFileReference
    var path: String { reference.path }
    private var pictures: DataPictures { reference.pictures }
    private var collection: String? { reference.collection }
    private let start: EntryScanner.Checkpoint
    private let startDigest: [UInt8]?
    /// false under `--watch`: an entry still being written at the end is left for later, and a
    /// bad entry stops the reading there (`failure`) instead of failing it.
    private let strict: Bool
    /// Where each entry `forEachEntry` handed on lies, to read it again: 16 bytes an entry.
    private var places: [(offset: Int64, length: Int32, line: Int32)] = []
    /// The entry being read, for messages.
    private var current: EntryScanner.Value?
    /// Where the last `forEachEntry` stopped, and why, when not strict.
    private(set) var stopped: DataFileReader.Progress?
    /// What it returned: the store's new mark once the entries are in.
    private(set) var mark: DataSourceMark?

    /// The fields of an entry the feed reads; any other is the item's own (`UserFields`).
    static let itemFields = ["title", "body", "author", "createdAt"]

    /// The file from its start, or past what the store took in from it (`mark`).
    init(_ reference: DataFileReference, after mark: DataSourceMark?, strict: Bool = true) throws(DataFileError) {
        self.reference = reference
        self.strict = strict
        let path = reference.path
        if let mark {
            guard let checkpoint = EntryScanner.Checkpoint(resume: mark.resume) else {
                throw DataFileError.diverged(path)
            }
            start = checkpoint
            startDigest = mark.digest
        } else {
            start = EntryScanner.Checkpoint(shape: try Self.shape(of: path, collection: reference.collection))
            startDigest = nil
        }
    }

    var shape: EntryScanner.Shape { start.shape }

    func forEachEntry(_ body: (ImportedItem) throws -> Void) throws -> DataSourceMark {
        places.removeAll()
        let progress: DataFileReader.Progress
        do {
            progress = try DataFileReader(path: path, collection: collection).read(from: start, digest: startDigest, strict: strict) { value in
                current = value
                guard let item = try decode(value.bytes, at: value) else { return }
                try body(item)
                places.append((value.start.offset, Int32(value.end.offset - value.start.offset), Int32(value.start.line)))
            }
        } catch .prefixDiffers {
            throw DataFileError.diverged(path)
        } catch .unreadable(let reason) {
            throw DataFileError(path: path, "cannot be read: \(reason)")
        }
        stopped = progress
        if let failure = progress.failure, strict { throw describe(failure) ?? failure }
        let mark = DataSourceMark(digest: progress.digest, resume: progress.checkpoint.resume)
        self.mark = mark
        return mark
    }

    func entries(at numbers: [Int]) throws -> [ImportedItem] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return try numbers.map { number in
            let place = places[number]
            try handle.seek(toOffset: UInt64(place.offset))
            let bytes = Array(try handle.read(upToCount: Int(place.length)) ?? Data())
            guard bytes.count == Int(place.length), let item = try decode(bytes, at: nil) else {
                throw DataFileError(path: path, "changed while it was being imported")
            }
            return item
        }
    }

    /// The one line for a failure of reading or importing the file; nil for others (the store's).
    func describe(_ error: any Error) -> DataFileError? {
        switch error {
        case let error as DataFileError:
            return error
        case ImportError.invalidEntry(_, let errors):
            let first = errors.first.map { "\($0.name) \($0.reason)" } ?? "is invalid"
            return DataFileError(path: path, "\(place(current)): \(first)")
        case ImportError.storeHoldsOtherItems(let fromAnotherFile):
            return DataFileError(path: path, Self.refusal(fromAnotherFile: fromAnotherFile), diverged: fromAnotherFile)
        case EntryScanner.Failure.noCollection(let wanted?):
            return DataFileError(path: path, "the object has no member \(wanted) holding an array of items (--collection \(wanted))")
        case EntryScanner.Failure.noCollection(nil):
            return DataFileError(path: path, "the object has no array of items: no items member, and no member holding an "
                                 + "array of objects (name the one to import with --collection NAME)")
        case EntryScanner.Failure.malformed(let position, let reason):
            return DataFileError(path: path, "line \(position.line), column \(position.column): malformed JSON: \(reason)")
        case EntryScanner.Failure.tooLarge(let role, let field, let position):
            let limit = "over the \(EntryScanner.maximumValueBytes >> 20) MiB an entry may take"
            guard case .entry(let index) = role else {
                return DataFileError(path: path, "line \(position.line): the member \(Self.name(role)) is \(limit)")
            }
            let what = field.map { "\($0) makes it" } ?? "it is"
            return DataFileError(path: path, "\(place(index: index, line: position.line)): \(what) \(limit)")
        default:
            return nil
        }
    }

    static func refusal(fromAnotherFile: Bool) -> String {
        fromAnotherFile
            ? "the store already holds items from a different data file; start with --reset to empty it and import this file"
            : "the store holds items posted to it (POST /api/items), not only the demo feed; "
                + "start with --reset to delete them and import this file"
    }

    private static func name(_ role: EntryScanner.Value.Role) -> String {
        if case .member(let name) = role { return name }
        return "items"
    }

    private func place(_ value: EntryScanner.Value?) -> String {
        guard let value, case .entry(let index) = value.role else { return "entry" }
        return place(index: index, line: value.start.line)
    }

    private func place(index: Int, line: Int) -> String {
        shape == .lines ? "entry \(index) (line \(line))" : "entry \(index)"
    }

    /// The file's shape, from its first line (`ShapeProbe`), or why it has none.
    private static func shape(of path: String, collection: String?) throws(DataFileError) -> EntryScanner.Shape {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataFileError(path: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        var probe = ShapeProbe(collection: collection)
        var first = true
        while probe.verdict == .undecided {
            let chunk = handle.readData(ofLength: DataFileReader.chunkBytes)
            if first, let encoding = ShapeProbe.encoding(of: Array(chunk.prefix(4))) {
                throw DataFileError(path: path, "the file is \(encoding), not UTF-8: save it as UTF-8, as JSON files are")
            }
            first = false
            if chunk.isEmpty { probe.finish() }
            chunk.withUnsafeBytes { probe.feed($0.bindMemory(to: UInt8.self)) }
        }
        guard case .shape(let shape) = probe.verdict else {
            throw DataFileError(path: path, "line 1: not a JSON array of items, an object of collections (an items array, "
                                + "or a db.json of arrays), or one item object a line")
        }
        if let collection, shape != .items {
            throw DataFileError(path: path, "--collection \(collection) names a member of an object, but the file is a JSON array")
        }
        return shape
    }

    /// The entry in `bytes` (read at `value`, nil when read again), or nil for another member
    /// of the `items` object, which needs only to be JSON.
    private func decode(_ bytes: [UInt8], at value: EntryScanner.Value?) throws(DataFileError) -> ImportedItem? {
        var error = json_error_t()
        let parsed = bytes.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY), &error)
        }
        guard let parsed else {
            let start = value?.start ?? EntryScanner.Position()
            if shape == .lines, Self.endsWithAComma(bytes) {
                throw DataFileError(path: path, "line \(start.line): NDJSON has one object a line and nothing after it: remove "
                                    + "the comma at the end of each line (or make the file a JSON array: [ … ])")
            }
            let line = start.line + Int(error.line) - 1
            let column = error.line == 1 ? start.column - 1 + Int(error.column) : Int(error.column)
            throw DataFileError(path: path, "line \(line), column \(column): malformed JSON: \(JSONBody.text(of: error))")
        }
        defer { json_decref(parsed) }
        if let value, case .member = value.role { return nil }
        guard parsed.pointee.type == JSON_OBJECT else { throw DataFileError(path: path, "\(place(value)): must be a JSON object") }
        if let refused = pictures.resolve(in: parsed) {
            throw DataFileError(path: path, "\(place(value)): \(refused.field) \(refused.reason)")
        }
        return try DataEntry.item(parsed) { problem throws(DataFileError) in
            throw DataFileError(path: path, "\(place(value)): \(problem)")
        }
    }
}

/// The data file the command line names (`--data`, `--collection`), with the table of the
/// pictures it names, which the server serves for as long as it runs.
struct DataFileReference: Sendable {
    let path: String
    /// The member of an object that holds the items; nil: `items`, else the first array of objects.
    let collection: String?
    let pictures: DataPictures

    init(path: String, collection: String? = nil) {
        self.path = path
        self.collection = collection
        pictures = DataPictures(dataFile: path)
    }
}

extension DataFile {
    /// Whether `line` is one JSON value followed by a comma: NDJSON written as a list.
    static func endsWithAComma(_ line: [UInt8]) -> Bool {
        guard line.last == UInt8(ascii: ",") else { return false }
        var error = json_error_t()
        let parsed = line.dropLast().withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_DECODE_ANY), &error)
        }
        defer { parsed.map { json_decref($0) } }
        return parsed != nil
    }
}

/// Why a data file cannot be used: one line, naming the file (exit code 1).
struct DataFileError: Error, CustomStringConvertible {
    let description: String
    /// The store holds items from a data file, and this file does not begin as that one did.
    let diverged: Bool

    init(path: String, _ problem: String, diverged: Bool = false) {
        description = "\(path): \(problem)"
        self.diverged = diverged
    }

    static func diverged(_ path: String) -> DataFileError {
        DataFileError(path: path, DataFile.refusal(fromAnotherFile: true), diverged: true)
    }
}

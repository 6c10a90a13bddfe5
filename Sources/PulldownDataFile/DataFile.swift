import CJansson
import Foundation
import ItemFields
import PulldownFeed

/// A `--data` file as a source of items: a JSON array of items, an object of collections (an
/// `items` array, or json-server's `db.json`, whose first array of objects, or the one
/// `--collection` names, holds the items), or one item object a line (NDJSON). Read as a stream
/// (`DataFileReader`): Jansson reads each entry on its own, as it reads request bodies (strict
/// JSON, UTF-8 checked, repeated names refused), so memory stays bounded whatever the size of the
/// file; only where each entry lies is kept, to read it again when the feed stores it.
///
/// Any problem is a `DataFileError` naming the file and where: the line and column for malformed
/// JSON, the entry and the field otherwise.
final class DataFile: ImportSource {
    let reference: DataFileReference
    var path: String { reference.path }
    private var pictures: DataPictures { reference.pictures }
    private var collection: String? { reference.collection }
    /// What the store took in from the file before, if anything.
    private let previous: TakenIn?
    /// The file's shape as read last.
    private(set) var shape: EntryLoop.Shape
    /// false under `--watch`: an entry still being written at the end is left for later, and a
    /// bad entry stops the reading there (`failure`) instead of failing it.
    private let strict: Bool
    /// Where each entry `forEachEntry` handed on lies, to read it again: 16 bytes an entry.
    private var places: [(offset: Int64, length: Int32, line: Int32)] = []
    /// The entry being read, for messages.
    private var current: (role: EntryLoop.Value.Role, start: EntryLoop.Position)?
    /// Where the last `forEachEntry` stopped, and why, when not strict.
    private(set) var stopped: DataFileReader.Progress?
    /// What it returned: the store's new mark once the entries are in.
    private(set) var mark: DataSourceMark?
    /// Where a long import shows how far it got (start-up on a terminal).
    var progressLine: ImportProgressLine?
    private var stored = 0

    /// The fields of an entry the feed reads; any other is the item's own (`UserFields`).
    static let itemFields = ["title", "body", "author", "createdAt"]

    /// The file from its start, or past what the store took in from it (`mark`).
    init(_ reference: DataFileReference, after mark: DataSourceMark?, strict: Bool = true) throws(DataFileError) {
        self.reference = reference
        self.strict = strict
        if let mark {
            guard let taken = TakenIn(mark) else { throw DataFileError.diverged(reference.path) }
            previous = taken
            shape = taken.checkpoint.shape
        } else {
            previous = nil
            shape = try Self.shape(of: reference.path, collection: reference.collection)
        }
    }

    /// Hands on each entry past what the store took in. The file is the one the store took in
    /// when its entries up to there say the same, however they are written: when its bytes up
    /// to there are unchanged, they are not read again; otherwise the file is read from its
    /// start and those entries compared by their canonical forms (`EntryChain`).
    func forEachEntry(_ body: (ImportedItem) throws -> Void) throws -> DataSourceMark {
        if let previous, let chain = previous.chain {
            do {
                return try read(from: previous.checkpoint, bytes: previous.bytes, chain: chain, body)
            } catch DataFileReader.Problem.prefixDiffers {
                // Written again, perhaps only differently: compare the entries themselves.
            }
        }
        guard let previous else { return try read(from: .init(shape: shape), body) }
        shape = try Self.shape(of: path, collection: collection)
        return try read(from: .init(shape: shape), matching: previous, body)
    }

    /// Reads from `checkpoint` (whose bytes hash to `bytes`, the entries before it chained to
    /// `chain`), each entry to `body`, but for the first ones that must match `previous`.
    private func read(from checkpoint: EntryLoop.Checkpoint, bytes: [UInt8]? = nil, chain start: [UInt8]? = nil,
                      matching previous: TakenIn? = nil, _ body: (ImportedItem) throws -> Void) throws -> DataSourceMark {
        places.removeAll()
        var chain = EntryChain(digest: start)
        let taken = previous?.checkpoint.entries ?? 0
        var matched = taken == 0
        let progress: DataFileReader.Progress
        do {
            progress = try DataFileReader(path: path, collection: collection).read(from: checkpoint, digest: bytes, strict: strict) { value, digestToHere in
                current = (value.role, value.start)
                if case .entry(let index) = value.role { progressLine?.read(index + 1, upTo: value.end.offset) }
                if case .entry(let index) = value.role, index < taken {
                    chain.add(EntryChain.canonical(value.json))
                    if index == taken - 1 {
                        // The file is the same so far: by its entries, or (a mark of before) by its bytes.
                        guard previous?.chain.map({ $0 == chain.digest }) ?? (digestToHere() == previous?.bytes) else {
                            throw DataFileError.diverged(path)
                        }
                        matched = true
                    }
                    return
                }
                guard let (item, canonical) = try decode(value.json, at: current) else { return }
                try body(item)
                chain.add(canonical)
                places.append((value.start.offset, Int32(value.end.offset - value.start.offset), Int32(value.start.line)))
            }
        } catch {
            // For `forEachEntry`, which reads the entries themselves then.
            if case .prefixDiffers = error { throw error }
            throw DataFileError(path: path, "cannot be read: \(error)")
        }
        stopped = progress
        if let failure = progress.failure as? DataFileError, failure.diverged { throw failure }
        // Under --watch a bad entry stops the reading and is said, unless it is one the store took
        // in: then there is nothing to go on from.
        if let failure = progress.failure, strict || !matched { throw describe(failure) ?? failure }
        // Fewer entries than the store took in: one was removed (or, under --watch, is being written).
        guard matched else { throw DataFileError.diverged(path) }
        let mark = TakenIn(chain: chain.digest, checkpoint: progress.checkpoint, bytes: progress.digest).mark
        self.mark = mark
        return mark
    }

    func entries(at numbers: [Int]) throws -> [ImportedItem] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        progressLine?.stored(stored, of: places.count)
        stored += numbers.count
        return try numbers.map { number in
            let place = places[number]
            try handle.seek(toOffset: UInt64(place.offset))
            let bytes = Array(try handle.read(upToCount: Int(place.length)) ?? Data())
            let parsed = try parse(bytes)
            defer { json_decref(parsed) }
            guard bytes.count == Int(place.length), let (item, _) = try decode(parsed, at: nil) else {
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
        case EntryLoop.Failure.noCollection(let wanted?):
            return DataFileError(path: path, "the object has no member \(wanted) holding an array of items (--collection \(wanted))")
        case EntryLoop.Failure.noCollection(nil):
            return DataFileError(path: path, "the object has no array of items: no items member, and no member holding an "
                                 + "array of objects (name the one to import with --collection NAME)")
        case EntryLoop.Failure.malformed(let position, let reason):
            return DataFileError(path: path, "line \(position.line), column \(position.column): malformed JSON: \(reason)")
        case EntryLoop.Failure.commaAfterLine(let position):
            return DataFileError(path: path, "line \(position.line): NDJSON has one object a line and nothing after it: remove "
                                 + "the comma at the end of each line (or make the file a JSON array: [ … ])")
        case EntryLoop.Failure.tooLarge(let role, let field, let position):
            let limit = "over the \(EntryLoop.maximumValueBytes >> 20) MiB an entry may take"
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

    private static func name(_ role: EntryLoop.Value.Role) -> String {
        if case .member(let name) = role { return name }
        return "items"
    }

    private func place(_ value: (role: EntryLoop.Value.Role, start: EntryLoop.Position)?) -> String {
        guard let value, case .entry(let index) = value.role else { return "entry" }
        return place(index: index, line: value.start.line)
    }

    private func place(index: Int, line: Int) -> String {
        shape == .lines ? "entry \(index) (line \(line))" : "entry \(index)"
    }

    /// The file's shape, from its first line (`EntryLoop.shape`), or why it has none.
    private static func shape(of path: String, collection: String?) throws(DataFileError) -> EntryLoop.Shape {
        let verdict: EntryLoop.Verdict
        do {
            verdict = try DataFileReader(path: path, collection: collection).shape()
        } catch {
            if case .notUTF8(let encoding) = error {
                throw DataFileError(path: path, "the file is \(encoding), not UTF-8: save it as UTF-8, as JSON files are")
            }
            throw DataFileError(path: path, "cannot be read: \(error)")
        }
        guard case .shape(let shape) = verdict else {
            throw DataFileError(path: path, "line 1: not a JSON array of items, an object of collections (an items array, "
                                + "or a db.json of arrays), or one item object a line")
        }
        if let collection, shape != .items {
            throw DataFileError(path: path, "--collection \(collection) names a member of an object, but the file is a JSON array")
        }
        return shape
    }

    /// An entry read again (`entries(at:)`), parsed: the caller's to decref.
    private func parse(_ bytes: [UInt8]) throws(DataFileError) -> UnsafeMutablePointer<json_t> {
        var error = json_error_t()
        let parsed = bytes.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY), &error)
        }
        guard let parsed else { throw DataFileError(path: path, "changed while it was being imported") }
        return parsed
    }

    /// The entry `parsed` (read at `value`, nil when read again) and its canonical form, or nil
    /// for another member of an object, which needs only to be JSON.
    private func decode(_ parsed: UnsafeMutablePointer<json_t>,
                        at value: (role: EntryLoop.Value.Role, start: EntryLoop.Position)?) throws(DataFileError) -> (ImportedItem, [UInt8])? {
        if let value, case .member = value.role { return nil }
        guard parsed.pointee.type == JSON_OBJECT else { throw DataFileError(path: path, "\(place(value)): must be a JSON object") }
        // Before its pictures are resolved and its id moved: as the file says it.
        let canonical = value == nil ? [] : EntryChain.canonical(parsed)
        if let refused = pictures.resolve(in: parsed) {
            throw DataFileError(path: path, "\(place(value)): \(refused.field) \(refused.reason)")
        }
        let item = try DataEntry.item(parsed) { problem throws(DataFileError) in
            throw DataFileError(path: path, "\(place(value)): \(problem)")
        }
        return (item, canonical)
    }
}

/// The data file the command line names (`--data`, `--collection`), with the table of the
/// pictures it names, which the server serves for as long as it runs.
public struct DataFileReference: Sendable {
    public let path: String
    /// The member of an object that holds the items; nil: `items`, else the first array of objects.
    public let collection: String?
    public let pictures: DataPictures

    public init(path: String, collection: String? = nil) {
        self.path = path
        self.collection = collection
        pictures = DataPictures(dataFile: path)
    }
}

/// Why a data file cannot be used: one line, naming the file (exit code 1).
public struct DataFileError: Error, CustomStringConvertible {
    public let description: String
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

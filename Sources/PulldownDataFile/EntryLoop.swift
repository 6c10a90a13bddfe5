import CJansson
import ItemFields

/// The loop over the punctuation between a data file's entries: the `[`, commas and `]` of an
/// array, the members of an object of collections, the lines of NDJSON. Each value in between
/// (an entry, a member's value, a member name) is Jansson's to read, straight from the file's
/// chunks (`DataFileBytes.parse`), so a file of any size is read in bounded memory and each
/// byte once; the loop checks the structure around the values and keeps the line and column of
/// each, so a message can name its place in the file.
///
/// In an object, the entries are the elements of its collection: the member `collection` names,
/// else the `items` member or the first array of objects (json-server's `db.json`: `posts`),
/// whichever comes first. The elements of its other arrays are read one at a time too, as
/// members, so a large other collection costs no more memory than the entries do. A UTF-8
/// byte-order mark at the start is skipped.
///
/// Not `strict` (`--watch`), the end of the file may fall anywhere: an entry still being written
/// there is left for a later read. Strict (a start-up import), the file must end the document.
struct EntryLoop {
    private enum Phase {
        case start, elementOrClose, element, afterElement
        case keyOrClose, key, colon, memberValue, firstElement, afterMember
        case end
    }

    private var checkpoint: Checkpoint
    private var phase: Phase
    private let strict: Bool
    /// The member `--collection` names; nil: `items` or the first array of objects.
    private let collection: String?
    /// The member being read, of the top-level object.
    private var key = ""
    /// Inside the collection's array, and whether it was found.
    private var inItems = false
    private var sawItems = false
    /// The member that holds the entries, once found.
    private var collectionKey: String?
    /// Inside an array member that is not the collection: its elements are members.
    private var inOtherArray = false
    private var startChecked = false

    /// Entries and members: any JSON value, a repeated name refused, the bytes after it the
    /// loop's. Lines: the line is the value.
    private static let valueFlags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK
    private static let lineFlags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES

    /// A loop at the start of a file of `shape`, or at a checkpoint; `collection` names the
    /// member of an object that holds the entries.
    init(_ checkpoint: Checkpoint, collection: String? = nil, strict: Bool = true) {
        self.checkpoint = checkpoint
        self.collection = collection
        self.strict = strict
        switch (checkpoint.shape, checkpoint.entries > 0 || checkpoint.position.offset > 0) {
        case (.lines, _): phase = .element
        case (_, false): phase = .start
        case (.array, true): phase = .afterElement
        case (.items, true): phase = .afterElement; inItems = true; sawItems = true
        }
    }

    /// The next value in `bytes`: an entry, or another member of an object of collections; nil
    /// at the end of the document, or, not strict, where the file ends before it.
    mutating func next(_ bytes: DataFileBytes) throws(Failure) -> Value? {
        if !startChecked {
            startChecked = true
            if (1...2).contains(try bytes.skipByteOrderMark()) {
                throw .malformed(bytes.place(), "invalid UTF-8 at the start of the file")
            }
        }
        if checkpoint.shape == .lines { return try line(bytes) }
        while true {
            guard let byte = try bytes.skipSpaces() else { return try fileEnds(bytes) }
            let position = bytes.nextPlace()
            switch (phase, byte) {
            case (.start, UInt8(ascii: "[")) where checkpoint.shape == .array:
                bytes.skip()
                phase = .elementOrClose
            case (.start, UInt8(ascii: "{")) where checkpoint.shape == .items:
                bytes.skip()
                phase = .keyOrClose
            case (.elementOrClose, UInt8(ascii: "]")), (.afterElement, UInt8(ascii: "]")):
                bytes.skip()
                phase = inItems || inOtherArray ? .afterMember : .end
                inItems = false
                inOtherArray = false
            case (.elementOrClose, _) where Self.startsValue(byte), (.element, _) where Self.startsValue(byte):
                return try value(inOtherArray ? .member(key) : .entry(checkpoint.entries), bytes)
            case (.afterElement, UInt8(ascii: ",")):
                bytes.skip()
                phase = .element
            case (.keyOrClose, UInt8(ascii: "}")), (.afterMember, UInt8(ascii: "}")):
                guard sawItems else { throw .noCollection(collection) }
                bytes.skip()
                phase = .end
            case (.keyOrClose, UInt8(ascii: "\"")), (.key, UInt8(ascii: "\"")):
                guard let name = try name(bytes, at: position) else { return try fileEnds(bytes) }
                key = name
                phase = .colon
            case (.colon, UInt8(ascii: ":")):
                bytes.skip()
                phase = .memberValue
            case (.memberValue, UInt8(ascii: "[")):
                if key == collectionKey { throw .malformed(position, "the object has two \(key) members") }
                bytes.skip()
                if sawItems || (collection != nil && key != collection) {
                    phase = .elementOrClose
                    inOtherArray = true
                } else if key == collection || key == "items" {
                    chooseCollection()
                } else {
                    // The first array of objects is the collection: it depends on its first element.
                    phase = .firstElement
                }
            case (.firstElement, UInt8(ascii: "{")):
                chooseCollection()
                return try value(.entry(checkpoint.entries), bytes)
            case (.firstElement, UInt8(ascii: "]")):
                bytes.skip()
                phase = .afterMember
            case (.firstElement, _) where Self.startsValue(byte):
                inOtherArray = true
                return try value(.member(key), bytes)
            case (.memberValue, _) where key == collection && Self.startsValue(byte):
                throw .malformed(position, "the member \(key) is not an array of items")
            case (.memberValue, _) where Self.startsValue(byte):
                return try value(.member(key), bytes)
            case (.afterMember, UInt8(ascii: ",")):
                bytes.skip()
                phase = .key
            default:
                throw .malformed(position, expected)
            }
        }
    }

    /// Whether a JSON value can start with `byte`.
    static func startsValue(_ byte: UInt8) -> Bool {
        "{[\"-0123456789tfn".utf8.contains(byte)
    }

    /// The array being opened holds the entries.
    private mutating func chooseCollection() {
        phase = .elementOrClose
        inItems = true
        sawItems = true
        collectionKey = key
    }

    private var expected: String {
        switch phase {
        case .start: return checkpoint.shape == .array ? "expected [" : "expected {"
        case .elementOrClose, .element, .firstElement: return "expected an entry"
        case .afterElement: return "expected , or ] after an entry"
        case .memberValue: return "expected a value"
        case .keyOrClose, .key: return "expected a member name in quotes"
        case .colon: return "expected : after a member name"
        case .afterMember: return "expected , or } after a member"
        case .end: return "nothing may follow the end of the document"
        }
    }

    /// Where the file ends before the document does: not strict, nothing more for now.
    private func fileEnds(_ bytes: DataFileBytes) throws(Failure) -> Value? {
        guard strict, phase != .end else { return nil }
        let position = try bytes.placeAtEnd()
        if phase == .start { throw .malformed(position, "the file is empty") }
        throw .malformed(position, "the file ends before its \(checkpoint.shape == .array ? "array" : "object") is closed")
    }

    /// The member name at the cursor (at `position`); nil where the file ends inside it.
    private func name(_ bytes: DataFileBytes, at position: Position) throws(Failure) -> String? {
        let parsed = try bytes.parse(flags: Self.valueFlags, limit: Self.maximumNameBytes + 2)
        guard let name = parsed.value else {
            if parsed.overLimit {
                let past = try bytes.reread(from: position.offset, count: Self.maximumNameBytes + 2)
                throw .malformed(Self.place(of: Self.maximumNameBytes + 1, in: past, from: position),
                                 "a member name over \(Self.maximumNameBytes) bytes")
            }
            if parsed.reachedEnd { return nil }
            throw .malformed(Self.place(of: parsed.error, from: position), parsed.error.message)
        }
        defer { json_decref(name) }
        return String(decoding: UnsafeRawBufferPointer(start: json_string_value(name), count: json_string_length(name)),
                      as: UTF8.self)
    }

    /// The value at the cursor, read by Jansson; nil when the file ends inside it, not strict.
    private mutating func value(_ role: Value.Role, _ bytes: DataFileBytes) throws(Failure) -> Value? {
        let start = bytes.nextPlace()
        let parsed = try bytes.parse(flags: Self.valueFlags, limit: Self.maximumValueBytes)
        guard let json = parsed.value else {
            if parsed.overLimit {
                let field = if case .entry = role { try Self.field(at: start, bytes) } else { String?.none }
                throw .tooLarge(role, field: field, start)
            }
            // Cut short by the end of the file, so perhaps still being written: Jansson calls
            // that a premature end of input, but a token it cannot finish there (`tr`, `-`, half
            // a character) invalid syntax; either way it read to the end of the file.
            if parsed.reachedEnd { return try fileEnds(bytes) }
            if parsed.error.code == json_error_stack_overflow {
                throw try Self.tooDeep(at: start, length: Int(parsed.error.position), bytes)
            }
            throw .malformed(Self.place(of: parsed.error, from: start), parsed.error.message)
        }
        // A number or a literal at the very end may go on: only what follows it ends it.
        guard strict || !parsed.reachedEnd else {
            json_decref(json)
            return nil
        }
        if Self.depth(of: json) > Self.maximumDepth {
            json_decref(json)
            throw try Self.tooDeep(at: start, length: Int(bytes.cursor - start.offset), bytes)
        }
        if let next = try bytes.peek(), !Self.endsScalar(next), !Self.isContainer(json) {
            json_decref(json)
            throw try Self.runOn(role, at: start, bytes)
        }
        let end = bytes.place()
        if case .entry(let index) = role {
            checkpoint.entries = index + 1
            checkpoint.position = end
            phase = .afterElement
        } else {
            phase = inOtherArray ? .afterElement : .afterMember
        }
        return Value(role: role, json: json, start: start, end: end)
    }

    /// NDJSON: the next line that is not blank, as an entry. The line is the value: Jansson
    /// refuses anything after it on the line.
    private mutating func line(_ bytes: DataFileBytes) throws(Failure) -> Value? {
        guard try bytes.skipSpaces() != nil else { return nil }
        let start = bytes.nextPlace()
        let role = Value.Role.entry(checkpoint.entries)
        let parsed = try bytes.parse(flags: Self.lineFlags, limit: Self.maximumValueBytes, byLine: true)
        if parsed.overLimit { throw .tooLarge(role, field: nil, start) }
        guard let json = parsed.value else {
            let rest = try bytes.restOfLine(from: start.offset)
            // The last line, without its newline yet: left for a later read.
            if !rest.ended && !strict { return nil }
            throw Self.refusal(of: rest.bytes, at: start)
        }
        if !parsed.lineEnded && !strict {
            json_decref(json)
            return nil
        }
        let end = bytes.place()
        checkpoint.entries += 1
        checkpoint.position = end
        return Value(role: role, json: json, start: start, end: end)
    }

    /// Whether `byte` may follow a number or a literal: what ends it in a file.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        DataFileBytes.isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    private static func isContainer(_ value: UnsafeMutablePointer<json_t>) -> Bool {
        [JSON_OBJECT, JSON_ARRAY, JSON_STRING].contains(value.pointee.type)
    }

    /// A number or a literal that runs on (`7x`, `truex`): the token, as far as a blank, a comma
    /// or a bracket, is what Jansson refuses, in its words.
    private static func runOn(_ role: Value.Role, at start: Position, _ bytes: DataFileBytes) throws(Failure) -> Failure {
        while let byte = try bytes.peek(), !endsScalar(byte) {
            if bytes.cursor - start.offset >= maximumValueBytes { return .tooLarge(role, field: nil, start) }
            bytes.skip()
        }
        let token = try bytes.reread(from: start.offset, count: Int(bytes.cursor - start.offset))
        guard let error = janssonError(token) else { return .malformed(start, "changed while it was being read") }
        return .malformed(place(of: error, from: start), error.message)
    }

    /// Why Jansson refuses the NDJSON `line` (at `start`), read again without the blanks that end
    /// it, so a string left open ends where the line's text does; a line that is one value and a
    /// comma is NDJSON written as a list.
    private static func refusal(of line: [UInt8], at start: Position) -> Failure {
        let trimmed = Array(line.reversed().drop(while: DataFileBytes.isSpace).reversed())
        guard let error = janssonError(trimmed) else { return .malformed(start, "changed while it was being read") }
        if trimmed.last == UInt8(ascii: ",") && janssonError(trimmed.dropLast()) == nil { return .commaAfterLine(start) }
        return .malformed(place(of: error, from: start), error.message)
    }

    /// What Jansson says of `bytes` as one JSON text: nil when it accepts them.
    private static func janssonError(_ bytes: some Collection<UInt8>) -> json_error_t? {
        var error = json_error_t()
        let parsed = Array(bytes).withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(lineFlags), &error)
        }
        guard let parsed else { return error }
        json_decref(parsed)
        return nil
    }
}

/// Where Jansson's findings lie in the file, and what a too large or too deep value was.
extension EntryLoop {
    /// The place of Jansson's `error` in a value that starts at `start`.
    static func place(of error: json_error_t, from start: Position) -> Position {
        Position(offset: start.offset + Int64(error.position), line: start.line + Int(error.line) - 1,
                 column: error.line == 1 ? start.column - 1 + Int(error.column) : Int(error.column))
    }

    /// The place of byte `index` of `bytes`, which start at `start`.
    static func place(of index: Int, in bytes: [UInt8], from start: Position) -> Position {
        var place = start
        bytes.dropFirst().prefix(index).withUnsafeBytes { place.count($0) }
        place.offset = start.offset + Int64(index)
        return place
    }

    /// Levels of arrays and objects in `value`, counted no further than one past the maximum.
    static func depth(of value: UnsafeMutablePointer<json_t>) -> Int {
        var deepest = 0
        switch value.pointee.type {
        case JSON_ARRAY:
            for index in 0..<json_array_size(value) where deepest < maximumDepth {
                deepest = max(deepest, json_array_get(value, index).map(depth) ?? 0)
            }
        case JSON_OBJECT:
            var iterator = json_object_iter(value)
            while let current = iterator, deepest < maximumDepth {
                deepest = max(deepest, json_object_iter_value(current).map(depth) ?? 0)
                iterator = json_object_iter_next(value, current)
            }
        default:
            return 0
        }
        return deepest + 1
    }

    /// A value at `start` nests deeper than `maximumDepth`, within its first `length` bytes:
    /// the failure at its first bracket too deep. Jansson stops at a depth of its own, fixed
    /// when it was built, and says where; behind as many brackets as leave `maximumDepth`
    /// levels, it stops at ours.
    static func tooDeep(at start: Position, length: Int, _ bytes: DataFileBytes) throws(Failure) -> Failure {
        let value = try bytes.reread(from: start.offset, count: length)
        let padding = janssonDepth - maximumDepth
        var error = json_error_t()
        let parsed = ([UInt8](repeating: UInt8(ascii: "["), count: padding) + value).withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(JSON_DECODE_ANY), &error)
        }
        parsed.map { json_decref($0) }
        let index = max(0, Int(error.position) - padding - 1)
        return .malformed(place(of: index, in: value, from: start), "nesting deeper than \(maximumDepth) levels")
    }

    /// How deep Jansson nests before it stops (`JSON_PARSER_MAX_DEPTH`, 2048 in Debian's
    /// build): where it stops in brackets that never end.
    static let janssonDepth: Int = {
        var error = json_error_t()
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 16)
        let parsed = brackets.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, 0, &error)
        }
        parsed.map { json_decref($0) }
        return Int(error.position) - 1
    }()

    /// The member of the object at `start` that was being read when it grew past
    /// `maximumValueBytes` (read again, as far as that), for the message; nil when it is no
    /// object, or the name is long.
    static func field(at start: Position, _ file: DataFileBytes) throws(Failure) -> String? {
        let bytes = DataFileBytes(.memory(try file.reread(from: start.offset, count: maximumValueBytes), chunk: .max))
        guard try bytes.peek() == UInt8(ascii: "{") else { return nil }
        bytes.skip()
        var field: String?
        while try bytes.skipSpaces() == UInt8(ascii: "\"") {
            let name = try bytes.parse(flags: valueFlags, limit: maximumValueBytes)
            guard let json = name.value else { break }
            let text = String(decoding: UnsafeRawBufferPointer(start: json_string_value(json), count: json_string_length(json)),
                              as: UTF8.self)
            json_decref(json)
            guard try bytes.skipSpaces() == UInt8(ascii: ":") else { break }
            bytes.skip()
            field = text.utf8.count <= 64 ? text : nil
            guard try bytes.skipSpaces() != nil else { break }
            let value = try bytes.parse(flags: valueFlags, limit: maximumValueBytes)
            guard let json = value.value else { break }
            json_decref(json)
            guard try bytes.skipSpaces() == UInt8(ascii: ",") else { break }
            bytes.skip()
        }
        return field
    }
}

/// Splits a data file's bytes into its entries as they arrive, chunk by chunk, so a file of any
/// size is read in bounded memory: each entry's bytes are handed on by themselves, for Jansson to
/// parse one at a time. It tracks only what finding the entries needs (strings, escapes, depth),
/// checks the structure around them (`[`, commas, `]`, the members of an object of collections),
/// and keeps the line and column of every entry so a parse error can name its place in the file.
///
/// In an object, the entries are the elements of its collection: the member `collection` names,
/// else the `items` member or the first array of objects (json-server's `db.json`: `posts`),
/// whichever comes first. The elements of its other arrays are read one at a time too, as
/// members, so a large other collection costs no more memory than the entries do. A UTF-8
/// byte-order mark at the start is skipped.
///
/// A pure state machine: `scan` returns the values completed in a chunk; no I/O.
struct EntryScanner {
    private enum Phase {
        case start, elementOrClose, element, afterElement
        case keyOrClose, key, inKey, colon, memberValue, firstElement, afterMember
        case inValue, end
    }

    private(set) var checkpoint: Checkpoint
    private var position: Position
    private var phase: Phase
    // The value being read.
    private var buffer: [UInt8] = []
    private var role = Value.Role.entry(0)
    private var valueStart = Position()
    private var depth = 0
    private var inString = false
    private var strings = StringLexer()
    private var isScalar = false
    // The member being read: of the top-level object, or at the top of the value.
    private var lastString: [UInt8]? = []
    private var field: String?
    private var key: [UInt8] = []
    /// Inside the collection's array, and whether it was found.
    private var inItems = false
    private var sawItems = false
    /// The member that holds the entries, once found.
    private var collectionKey: [UInt8]?
    /// Inside an array member that is not the collection: its elements are members.
    private var inOtherArray = false
    /// The member `--collection` names; nil: `items` or the first array of objects.
    private let collection: [UInt8]?
    /// How many bytes of a UTF-8 byte-order mark were skipped at the start.
    private var markBytes = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A scanner at the start of a file of `shape`, or at a checkpoint; `collection` names the
    /// member of an object that holds the entries.
    init(_ checkpoint: Checkpoint, collection: String? = nil) {
        self.checkpoint = checkpoint
        self.collection = collection.map { Array($0.utf8) }
        position = checkpoint.position
        switch (checkpoint.shape, checkpoint.entries > 0 || checkpoint.position.offset > 0) {
        case (.lines, _): phase = .element
        case (_, false): phase = .start
        case (.array, true): phase = .afterElement
        case (.items, true): phase = .afterElement; inItems = true; sawItems = true
        }
    }

    /// The values completed in `bytes`, the next bytes of the file, and the failure that stopped
    /// the scan there, if one did (the values before it stand).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (values: [Value], failure: Failure?) {
        var found: [Value] = []
        do throws(Failure) {
            for byte in bytes {
                if position.offset < 3, position.offset == Int64(markBytes), byte == Self.byteOrderMark[markBytes] {
                    // Not a character of the document: no column either.
                    markBytes += 1
                    position.offset += 1
                    continue
                }
                if markBytes > 0 && markBytes < 3 { throw .malformed(position, "invalid UTF-8 at the start of the file") }
                if byte == 0x0A {
                    try handle(byte, into: &found)
                    position.offset += 1
                    position.line += 1
                    position.column = 0
                } else {
                    if byte & 0xC0 != 0x80 { position.column += 1 }
                    try handle(byte, into: &found)
                    position.offset += 1
                }
            }
        } catch {
            return (found, error)
        }
        return (found, nil)
    }

    /// At the end of the file: the last line of NDJSON, or an error where the file stops short.
    mutating func finish() throws(Failure) -> Value? {
        if checkpoint.shape == .lines {
            guard !buffer.allSatisfy(Self.isSpace) else { return nil }
            return complete(at: position)
        }
        switch phase {
        case .end: return nil
        case .start: throw .malformed(position, "the file is empty")
        default: throw .malformed(position, "the file ends before its \(checkpoint.shape == .array ? "array" : "object") is closed")
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// Whether a JSON value can start with `byte`.
    static func startsValue(_ byte: UInt8) -> Bool {
        "{[\"-0123456789tfn".utf8.contains(byte)
    }

    private mutating func handle(_ byte: UInt8, into found: inout [Value]) throws(Failure) {
        if checkpoint.shape == .lines { return try line(byte, into: &found) }
        if phase == .inValue { return try value(byte, into: &found) }
        if phase == .inKey { return try keyByte(byte) }
        if Self.isSpace(byte) { return }
        switch (phase, byte) {
        case (.start, UInt8(ascii: "[")) where checkpoint.shape == .array: phase = .elementOrClose
        case (.start, UInt8(ascii: "{")) where checkpoint.shape == .items: phase = .keyOrClose
        case (.elementOrClose, UInt8(ascii: "]")), (.afterElement, UInt8(ascii: "]")):
            phase = inItems || inOtherArray ? .afterMember : .end
            inItems = false
            inOtherArray = false
        case (.elementOrClose, _) where Self.startsValue(byte), (.element, _) where Self.startsValue(byte):
            begin(inOtherArray ? .member(keyName) : .entry(checkpoint.entries), with: byte)
        case (.afterElement, UInt8(ascii: ",")): phase = .element
        case (.keyOrClose, UInt8(ascii: "}")), (.afterMember, UInt8(ascii: "}")):
            guard sawItems else { throw .noCollection(collection.map { String(decoding: $0, as: UTF8.self) }) }
            phase = .end
        case (.keyOrClose, UInt8(ascii: "\"")), (.key, UInt8(ascii: "\"")):
            key = []
            phase = .inKey
        case (.colon, UInt8(ascii: ":")): phase = .memberValue
        case (.memberValue, UInt8(ascii: "[")):
            if key == collectionKey { throw .malformed(position, "the object has two \(keyName) members") }
            if sawItems || (collection != nil && key != collection) {
                phase = .elementOrClose
                inOtherArray = true
            } else if key == collection || key == Array("items".utf8) {
                chooseCollection()
            } else {
                // The first array of objects is the collection: it depends on its first element.
                phase = .firstElement
            }
        case (.firstElement, UInt8(ascii: "{")):
            chooseCollection()
            begin(.entry(checkpoint.entries), with: byte)
        case (.firstElement, UInt8(ascii: "]")): phase = .afterMember
        case (.firstElement, _) where Self.startsValue(byte):
            inOtherArray = true
            begin(.member(keyName), with: byte)
        case (.memberValue, _) where key == collection && Self.startsValue(byte):
            throw .malformed(position, "the member \(keyName) is not an array of items")
        case (.memberValue, _) where Self.startsValue(byte): begin(.member(keyName), with: byte)
        case (.afterMember, UInt8(ascii: ",")): phase = .key
        default: throw .malformed(position, expected)
        }
    }

    /// The member being read, as text.
    private var keyName: String { String(decoding: key, as: UTF8.self) }

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
        default: return "nothing may follow the end of the document"
        }
    }

    private mutating func keyByte(_ byte: UInt8) throws(Failure) {
        if strings.closes(byte) {
            phase = .colon
            return
        }
        guard key.count < 1024 else { throw .malformed(position, "a member name over 1024 bytes") }
        key.append(byte)
    }

    private mutating func begin(_ role: Value.Role, with byte: UInt8) {
        self.role = role
        valueStart = position
        buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        depth = 0
        inString = false
        strings = StringLexer()
        isScalar = byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "\"")
        lastString = nil
        field = nil
        phase = .inValue
        if isScalar {
            buffer.append(byte)
        } else {
            // Fed again, so the first byte is lexed as any other.
            var ignored: [Value] = []
            try? value(byte, into: &ignored)
        }
    }

    /// One byte of the value being read.
    private mutating func value(_ byte: UInt8, into found: inout [Value]) throws(Failure) {
        if isScalar {
            if Self.isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                found.append(finishValue(at: position))
                return try handle(byte, into: &found)
            }
        }
        guard buffer.count < Self.maximumValueBytes else { throw .tooLarge(role, field: field, valueStart) }
        buffer.append(byte)
        if isScalar { return }
        if inString {
            if strings.closes(byte) {
                inString = false
                if depth == 0 { found.append(finishValue(at: after)) }
            } else if depth == 1, lastString != nil {
                if lastString!.count < 64 { lastString!.append(byte) } else { lastString = nil }
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            if depth == 1 { lastString = [] }
        case UInt8(ascii: ":") where depth == 1:
            field = lastString.map { String(decoding: $0, as: UTF8.self) }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > Self.maximumDepth { throw .malformed(position, "nesting deeper than \(Self.maximumDepth) levels") }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { found.append(finishValue(at: after)) }
        default:
            break
        }
    }

    /// The position just past the current byte.
    private var after: Position {
        var next = position
        next.offset += 1
        return next
    }

    private mutating func finishValue(at end: Position) -> Value {
        let found = Value(role: role, bytes: buffer, start: valueStart, end: end)
        if case .entry(let index) = role {
            checkpoint.entries = index + 1
            checkpoint.position = end
            phase = .afterElement
        } else {
            phase = inOtherArray ? .afterElement : .afterMember
        }
        return found
    }

    /// NDJSON: every line is an entry or blank.
    private mutating func line(_ byte: UInt8, into found: inout [Value]) throws(Failure) {
        if byte == 0x0A {
            if let value = complete(at: position) { found.append(value) }
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            return
        }
        if buffer.isEmpty {
            if Self.isSpace(byte) { return }
            valueStart = position
        }
        guard buffer.count < Self.maximumValueBytes else { throw .tooLarge(.entry(checkpoint.entries), field: nil, valueStart) }
        buffer.append(byte)
    }

    /// The line read so far as an entry, ending at `end`; nil when blank.
    private mutating func complete(at end: Position) -> Value? {
        while let last = buffer.last, Self.isSpace(last) { buffer.removeLast() }
        guard !buffer.isEmpty else { return nil }
        let found = Value(role: .entry(checkpoint.entries), bytes: buffer, start: valueStart, end: end)
        checkpoint.entries += 1
        checkpoint.position = end
        buffer.removeAll(keepingCapacity: true)
        return found
    }
}

/// Which of the three shapes a data file has, from its first bytes: `[` opens an array; `{` opens
/// either NDJSON or an object of collections (an `items` array, or json-server's `db.json`). It is
/// NDJSON when the first line holds one whole object by itself and another line follows (or a
/// comma does: NDJSON written with commas, which the lines then say is wrong), or when that object
/// has no collection (a file of one line): no `items` array, and no array of objects unless it
/// has a `title` too, as an item does. With `--collection`, `{` always opens an object. Reads no
/// further than the first line and the first byte after it, and keeps nothing but a few flags,
/// however long that line is. A UTF-8 byte-order mark is skipped; a file in another encoding is
/// told by its first bytes (`encoding(of:)`).
struct ShapeProbe {
    enum Verdict: Equatable {
        case undecided
        case shape(EntryScanner.Shape)
        /// Neither `[` nor `{` comes first.
        case notAnItemFile
    }

    private(set) var verdict = Verdict.undecided
    private let collection: [UInt8]?
    private var skipped = 0
    private var opened = false
    private var depth = 0
    private var inString = false
    private var strings = StringLexer()
    private var string: [UInt8]? = []
    /// The last string at depth 1 may be a member name: is it `items` (or `--collection`'s),
    /// or `title`?
    private var candidateKey = false
    private var titleKey = false
    private var hasItems = false
    private var hasTitle = false
    /// After a member name's colon at depth 1, and after that member's `[`: what comes first.
    private var awaitingValue = false
    private var awaitingElement = false
    private var hasArrayOfObjects = false
    private var closedOnFirstLine = false
    private var pastFirstLine = false

    init(collection: String? = nil) {
        self.collection = collection.map { Array($0.utf8) }
    }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes where verdict == .undecided { step(byte) }
    }

    /// At the end of the file.
    mutating func finish() {
        guard verdict == .undecided else { return }
        let hasCollection = hasItems || (hasArrayOfObjects && !hasTitle)
        verdict = opened ? .shape(closedOnFirstLine && !hasCollection ? .lines : .items) : .notAnItemFile
    }

    /// The encoding a file that starts with `start` is in, named, when it is not UTF-8 (its
    /// byte-order mark, or the zero bytes of UTF-16 or UTF-32 around the first character).
    static func encoding(of start: [UInt8]) -> String? {
        let head = start.prefix(4) + [UInt8](repeating: 0xAA, count: max(0, 4 - start.count))
        switch (head[0], head[1], head[2], head[3]) {
        // A byte-order mark, else the zero bytes around a first character below U+0100.
        case (0xFF, 0xFE, 0, 0): return "UTF-32 (little-endian)"
        case (_, 0, 0, 0) where head[0] != 0: return "UTF-32 (little-endian)"
        case (0, 0, 0xFE, 0xFF): return "UTF-32 (big-endian)"
        case (0, 0, 0, _) where head[3] != 0: return "UTF-32 (big-endian)"
        case (0xFF, 0xFE, _, _): return "UTF-16 (little-endian)"
        case (_, 0, _, _) where head[0] != 0 && start.count > 1: return "UTF-16 (little-endian)"
        case (0xFE, 0xFF, _, _): return "UTF-16 (big-endian)"
        case (0, _, _, _) where head[1] != 0 && start.count > 1: return "UTF-16 (big-endian)"
        default: return nil
        }
    }

    private mutating func step(_ byte: UInt8) {
        if !opened {
            if skipped < 3 && byte == [0xEF, 0xBB, 0xBF][skipped] { skipped += 1; return }
            if EntryScanner.isSpace(byte) { return }
            if byte == UInt8(ascii: "[") { verdict = .shape(.array); return }
            guard byte == UInt8(ascii: "{") else { verdict = .notAnItemFile; return }
            if collection != nil { verdict = .shape(.items); return }
            opened = true
            depth = 1
            return
        }
        if pastFirstLine {
            if !EntryScanner.isSpace(byte) { verdict = .shape(closedOnFirstLine ? .lines : .items) }
            return
        }
        if byte == 0x0A {
            pastFirstLine = true
            if !closedOnFirstLine { verdict = .shape(.items) }
            return
        }
        if closedOnFirstLine {
            // A comma after the object: NDJSON written as a list, which the lines will say.
            if byte == UInt8(ascii: ",") { verdict = .shape(.lines); return }
            // Anything else but blanks after the object on its line: not one object a line.
            if !EntryScanner.isSpace(byte) { verdict = .shape(.items) }
            return
        }
        if inString { return stringByte(byte) }
        if !EntryScanner.isSpace(byte) {
            if awaitingElement && byte == UInt8(ascii: "{") { hasArrayOfObjects = true }
            awaitingElement = awaitingValue && byte == UInt8(ascii: "[")
            awaitingValue = false
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            string = depth == 1 ? [] : nil
        case UInt8(ascii: ":"):
            if candidateKey { hasItems = true }
            if titleKey { hasTitle = true }
            awaitingValue = depth == 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { closedOnFirstLine = true }
        default:
            break
        }
        if byte != UInt8(ascii: "\"") && !EntryScanner.isSpace(byte) {
            candidateKey = false
            titleKey = false
        }
    }

    private mutating func stringByte(_ byte: UInt8) {
        if strings.closes(byte) {
            inString = false
            candidateKey = string == Array("items".utf8)
            titleKey = string == Array("title".utf8)
            return
        }
        if string != nil && string!.count < 8 { string!.append(byte) } else { string = nil }
    }
}

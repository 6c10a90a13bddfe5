/// Which of the three shapes a data file has, from its first bytes: `[` opens an array; `{` opens
/// either NDJSON or an object with an `items` array. It is NDJSON when the first line holds one
/// whole object by itself and another line follows, or when that object has no `items` member
/// (a file of one line). Reads no further than the first line and the first byte after it, and
/// keeps nothing but a few flags, however long that line is.
struct ShapeProbe {
    enum Verdict: Equatable {
        case undecided
        case shape(EntryScanner.Shape)
        /// Neither `[` nor `{` comes first.
        case notAnItemFile
    }

    private(set) var verdict = Verdict.undecided
    private var opened = false
    private var depth = 0
    private var inString = false
    private var strings = StringLexer()
    private var string: [UInt8]? = []
    private var candidateKey = false
    private var hasItems = false
    private var closedOnFirstLine = false
    private var pastFirstLine = false

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes where verdict == .undecided { step(byte) }
    }

    /// At the end of the file.
    mutating func finish() {
        guard verdict == .undecided else { return }
        verdict = opened ? .shape(closedOnFirstLine && !hasItems ? .lines : .items) : .notAnItemFile
    }

    private mutating func step(_ byte: UInt8) {
        if !opened {
            if EntryScanner.isSpace(byte) { return }
            if byte == UInt8(ascii: "[") { verdict = .shape(.array); return }
            guard byte == UInt8(ascii: "{") else { verdict = .notAnItemFile; return }
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
            // Anything but blanks after the object on its line: not one object a line.
            if !EntryScanner.isSpace(byte) { verdict = .shape(.items) }
            return
        }
        if inString { return stringByte(byte) }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            string = depth == 1 ? [] : nil
        case UInt8(ascii: ":"):
            if candidateKey { hasItems = true }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { closedOnFirstLine = true }
        default:
            break
        }
        if byte != UInt8(ascii: "\"") && !EntryScanner.isSpace(byte) { candidateKey = false }
    }

    private mutating func stringByte(_ byte: UInt8) {
        if strings.closes(byte) {
            inString = false
            candidateKey = string == Array("items".utf8)
            return
        }
        if string != nil && string!.count < 8 { string!.append(byte) } else { string = nil }
    }
}

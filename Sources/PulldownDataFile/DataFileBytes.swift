import CJansson
import Foundation
import Hashing

/// A data file's bytes from a place in it on, a chunk at a time, for the loop over the
/// punctuation between its entries (`EntryLoop`) and for Jansson, which reads each value
/// straight from the chunks (`json_load_callback`) and says how many bytes the value took
/// (`JSON_DISABLE_EOF_CHECK`, `error.position`). So each byte is read once; every byte consumed
/// is hashed (the store's mark of what it took in) and counted into a line and a column, for
/// messages.
final class DataFileBytes {
    /// Where the bytes come from: an open file, or bytes in memory handed out `chunk` at a time
    /// (tests, and a value read again on an error's path).
    enum Source {
        case descriptor(Int32)
        case memory([UInt8], chunk: Int)
    }

    /// How one `parse` went.
    struct Parsed {
        /// The value, the caller's to decref; nil when Jansson refused it (`error`).
        var value: UnsafeMutablePointer<json_t>?
        var error = json_error_t()
        /// Jansson wanted a byte past the end of the file: the value may still be being written.
        var reachedEnd = false
        /// ... past the `limit` it was given: the value is longer.
        var overLimit = false
        /// A line's parse: Jansson read to the newline that ends it.
        var lineEnded = false
    }

    static let chunkBytes = 1 << 16
    /// Jansson may read this many bytes past what it takes (a character after a number, read
    /// whole, then put back): kept when a chunk is read past them.
    private static let lookahead = 4

    private var source: Source
    private var memoryOffset = 0
    private let buffer: UnsafeMutableRawBufferPointer
    /// The file offset of the buffer's first byte, and how many it holds.
    private var bufferStart: Int64
    private var count = 0
    private var ended = false
    /// The next byte to consume.
    private(set) var cursor: Int64
    /// Bytes before this one are hashed and counted into `counted`.
    private var processed: Int64
    private var counted: EntryLoop.Position
    private var hash: ContentHash
    // While Jansson reads a value: the next byte to hand it, where to stop, and what happened.
    private var handed: Int64 = 0
    private var handLimit: Int64 = 0
    private var byLine = false
    private var parsed = Parsed()
    private var failure: EntryLoop.Failure?

    /// The bytes from `start` on (where `source` is), the ones before it hashed into `hash`.
    init(_ source: Source, from start: EntryLoop.Position = .init(), hash: ContentHash = ContentHash()) {
        self.source = source
        if case .memory = source { memoryOffset = Int(start.offset) }
        buffer = .allocate(byteCount: Self.chunkBytes + Self.lookahead, alignment: 1)
        bufferStart = start.offset
        cursor = start.offset
        processed = start.offset
        counted = start
        self.hash = hash
    }

    deinit {
        buffer.deallocate()
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The byte at the cursor, not consumed; nil at the end of the file.
    func peek() throws(EntryLoop.Failure) -> UInt8? {
        guard try load(cursor, keeping: cursor) else { return nil }
        return buffer[Int(cursor - bufferStart)]
    }

    /// Consumes the byte `peek` gave.
    func skip() {
        cursor += 1
    }

    /// Consumes blanks; the byte after them, not consumed, or nil at the end of the file.
    func skipSpaces() throws(EntryLoop.Failure) -> UInt8? {
        while let byte = try peek() {
            guard Self.isSpace(byte) else { return byte }
            cursor += 1
        }
        return nil
    }

    /// At the start of the file, consumes as much of a UTF-8 byte-order mark as is there: not
    /// a character of the document, so no column. Returns how many of its 3 bytes it found.
    func skipByteOrderMark() throws(EntryLoop.Failure) -> Int {
        guard cursor == 0 else { return 0 }
        var found = 0
        while found < 3, try peek() == [0xEF, 0xBB, 0xBF][found] {
            found += 1
            cursor += 1
        }
        process(upTo: cursor)
        counted.column = 0
        return found
    }

    /// Where the last byte consumed is: the line, and the column of the last character on it.
    func place() -> EntryLoop.Position {
        process(upTo: cursor)
        return counted
    }

    /// Where the byte at the cursor is, its own column counted (after `peek`).
    func nextPlace() -> EntryLoop.Position {
        var place = place()
        if cursor < bufferStart + Int64(count) {
            let byte = buffer[Int(cursor - bufferStart)]
            if byte != 0x0A && byte & 0xC0 != 0x80 { place.column += 1 }
        }
        return place
    }

    /// Consumes the rest of the file; where it ends.
    func placeAtEnd() throws(EntryLoop.Failure) -> EntryLoop.Position {
        while try load(cursor, keeping: cursor) { cursor = bufferStart + Int64(count) }
        return place()
    }

    /// SHA-256 of the file up to the cursor.
    func digest() -> [UInt8] {
        process(upTo: cursor)
        return hash.digest()
    }

    /// Jansson reads one value from the cursor, at most `limit` bytes; the cursor moves past it.
    /// `byLine`: the value is the line, which Jansson is given up to its newline (not
    /// consumed), so whatever follows the value on the line is Jansson's to refuse.
    func parse(flags: Int32, limit: Int, byLine: Bool = false) throws(EntryLoop.Failure) -> Parsed {
        handed = cursor
        handLimit = cursor + Int64(limit)
        self.byLine = byLine
        parsed = Parsed()
        failure = nil
        var error = json_error_t()
        let value = json_load_callback(Self.feed, Unmanaged.passUnretained(self).toOpaque(), Int(flags), &error)
        if let failure {
            value.map { json_decref($0) }
            throw failure
        }
        var result = parsed
        result.value = value
        result.error = error
        // Refused, the value was read as far as it was handed: on from there, if at all. A
        // line's value takes its blanks up to the newline too (Jansson reads to the end).
        cursor = value == nil ? handed : cursor + Int64(error.position)
        return result
    }

    /// After a line's `parse` that failed: consumes the line; whether a newline ends it (else
    /// the file does), and the line's bytes as they are (for a closer look at what is wrong).
    func restOfLine(from start: Int64) throws(EntryLoop.Failure) -> (ended: Bool, bytes: [UInt8]) {
        let ended = try skipLine()
        return (ended, try reread(from: start, count: Int(cursor - start)))
    }

    /// After a `parse` that failed: consumes the rest of its line; whether a newline ends it
    /// (else the file does).
    func skipLine() throws(EntryLoop.Failure) -> Bool {
        if parsed.lineEnded || parsed.reachedEnd { return parsed.lineEnded }
        while let byte = try peek(), byte != 0x0A { cursor += 1 }
        return try peek() != nil
    }

    /// `count` bytes from `offset` (at most what the file has), read again: an error's path.
    func reread(from offset: Int64, count: Int) throws(EntryLoop.Failure) -> [UInt8] {
        switch source {
        case .descriptor(let descriptor):
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            return Array(bytes.prefix(got))
        case .memory(let bytes, _):
            let from = min(Int(offset), bytes.count)
            return Array(bytes[from..<min(bytes.count, from + count)])
        }
    }

    /// Jansson's source while it reads a value: hands it the bytes from `handed` on.
    private static let feed: json_load_callback_t = { target, size, context in
        Unmanaged<DataFileBytes>.fromOpaque(context!).takeUnretainedValue().hand(into: target!, size)
    }

    private func hand(into target: UnsafeMutableRawPointer, _ size: Int) -> Int {
        if parsed.lineEnded { return 0 }
        do {
            // Jansson has read every byte handed; it may put back a few (`lookahead`).
            guard try load(handed, keeping: max(cursor, handed - Int64(Self.lookahead))) else {
                parsed.reachedEnd = true
                return 0
            }
        } catch {
            failure = error
            return -1
        }
        let start = Int(handed - bufferStart)
        if byLine && buffer[start] == 0x0A {
            parsed.lineEnded = true
            return 0
        }
        guard handed < handLimit else {
            parsed.overLimit = true
            return -1
        }
        var available = min(size, count - start, Int(handLimit - handed))
        if byLine, let newline = memchr(buffer.baseAddress! + start, 0x0A, available) {
            available = newline - (buffer.baseAddress! + start)
        }
        target.copyMemory(from: buffer.baseAddress! + start, byteCount: available)
        handed += Int64(available)
        return available
    }

    /// Makes the byte at `offset` readable, reading chunks on, dropping the bytes before
    /// `keep` once they are hashed and counted; false at the end of the file.
    private func load(_ offset: Int64, keeping keep: Int64) throws(EntryLoop.Failure) -> Bool {
        while offset >= bufferStart + Int64(count) {
            if ended { return false }
            process(upTo: keep)
            let dropped = Int(keep - bufferStart)
            let kept = count - dropped
            if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + dropped, byteCount: kept) }
            bufferStart = keep
            count = kept
            let got = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + Self.chunkBytes]))
            if got == 0 { ended = true }
            count += got
        }
        return true
    }

    private func read(into space: UnsafeMutableRawBufferPointer) throws(EntryLoop.Failure) -> Int {
        switch source {
        case .descriptor(let descriptor):
            let got = Glibc.read(descriptor, space.baseAddress, space.count)
            guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            return got
        case .memory(let bytes, let chunk):
            let got = min(chunk, space.count, bytes.count - memoryOffset)
            // An empty array may have no address: copy only when there is something to copy.
            if got > 0 { bytes.withUnsafeBytes { space.baseAddress!.copyMemory(from: $0.baseAddress! + memoryOffset, byteCount: got) } }
            memoryOffset += got
            return got
        }
    }

    /// Hashes and counts the bytes up to `offset`.
    private func process(upTo offset: Int64) {
        guard offset > processed else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[Int(processed - bufferStart)..<Int(offset - bufferStart)])
        hash.add(bytes.bindMemory(to: UInt8.self))
        counted.count(bytes)
        processed = offset
    }
}

extension EntryLoop.Position {
    /// Moves past `bytes`: a newline starts a line; a character (not a byte: as Jansson counts)
    /// is a column.
    mutating func count(_ bytes: UnsafeRawBufferPointer) {
        offset += Int64(bytes.count)
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
    }
}

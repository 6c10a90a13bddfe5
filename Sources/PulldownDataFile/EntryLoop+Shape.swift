import CJansson

/// Which of the three shapes a data file has, from its first bytes: `[` opens an array; `{` opens
/// either NDJSON or an object of collections (an `items` array, or json-server's `db.json`). It is
/// NDJSON when the first line holds one whole object by itself and another line follows (or a
/// comma does: NDJSON written with commas, which the lines then say is wrong), or when that object
/// has no collection (a file of one line): no `items` member, and no array of objects unless it
/// has a `title` too, as an item does. With `--collection`, `{` always opens an object.
///
/// Jansson reads the first object, given no more than the first line and no more than an entry
/// may take: an object that does not end there is an object of collections (an entry could not
/// be so long), and so is one followed by more on its line. One that Jansson refuses is a line of
/// NDJSON when more lines follow it, else an object of collections on one line.
extension EntryLoop {
    enum Verdict: Equatable {
        case shape(Shape)
        /// Neither `[` nor `{` comes first.
        case notAnItemFile
    }

    /// The shape of the file whose bytes, from its start, are `bytes`.
    static func shape(of bytes: DataFileBytes, collection: String? = nil) throws(Failure) -> Verdict {
        _ = try bytes.skipByteOrderMark()
        switch try bytes.skipSpaces() {
        case UInt8(ascii: "["): return .shape(.array)
        case UInt8(ascii: "{"): break
        default: return .notAnItemFile
        }
        if collection != nil { return .shape(.items) }
        let parsed = try bytes.parse(flags: JSON_DISABLE_EOF_CHECK, limit: maximumValueBytes, byLine: true)
        guard let first = parsed.value else {
            if parsed.lineEnded || parsed.reachedEnd || parsed.overLimit { return .shape(.items) }
            guard try bytes.skipLine() else { return .shape(.items) }
            return .shape(try bytes.skipSpaces() != nil ? .lines : .items)
        }
        defer { json_decref(first) }
        // What follows the object on its line, then on the next ones.
        while let byte = try bytes.peek(), byte != 0x0A {
            if byte == UInt8(ascii: ",") { return .shape(.lines) }
            if !DataFileBytes.isSpace(byte) { return .shape(.items) }
            bytes.skip()
        }
        if try bytes.skipSpaces() != nil { return .shape(.lines) }
        return .shape(hasCollection(first) ? .items : .lines)
    }

    /// Whether an object read as the whole file holds a collection.
    private static func hasCollection(_ object: UnsafeMutablePointer<json_t>) -> Bool {
        if json_object_get(object, "items") != nil { return true }
        if json_object_get(object, "title") != nil { return false }
        var iterator = json_object_iter(object)
        while let current = iterator {
            if let value = json_object_iter_value(current), value.pointee.type == JSON_ARRAY,
               json_array_get(value, 0)?.pointee.type == JSON_OBJECT {
                return true
            }
            iterator = json_object_iter_next(object, current)
        }
        return false
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
}

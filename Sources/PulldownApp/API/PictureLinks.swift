import Glibc

/// An item's pictures (`avatar`, `image.url`) go out absolute: a path on this server is written
/// after the base URL (`BaseURL`), so a native client or another origin draws it as it is. They
/// are stored as posted (a path stays a path), since the base depends on how the server is
/// reached; an http(s) URL goes out as it is. Only the pictures: an item's `url` and every
/// other field of its own are written back exactly as given.
enum PictureLinks {
    /// `url` absolute: after `base` when it is a path on this server (`/…`, not `//…`).
    static func absolute(_ url: String, base: String) -> String {
        isServerPath(url.utf8) ? base + url : url
    }

    /// Where, in `fields` (an item's own fields: compact JSON object text as `UserFields` wrote
    /// it), the value of `avatar` and of `image`'s `url` is a path on this server: the byte
    /// offset of its `/`, just inside the opening quote, where the base goes.
    ///
    /// A scan of the bytes rather than a parse: it runs for every item of every page read from
    /// the store, and the text is JSON the server wrote itself. It follows strings (a backslash
    /// escapes the next byte) and nesting, and looks at the keys of the item (depth 1) and of
    /// its `image` (depth 2) only.
    static func serverPathOffsets(in fields: String) -> [Int] {
        var offsets: [Int] = []
        var text = fields
        text.withUTF8 { bytes in
            var depth = 0
            var index = 0
            // The last key read at each of the two depths that matter, as a range of bytes.
            var keyAtDepth1 = 0..<0, keyAtDepth2 = 0..<0
            var inImage = false
            var afterColon = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let start = index + 1
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                        end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    if afterColon {
                        let wanted = (depth == 1 && matches(bytes, keyAtDepth1, "avatar"))
                            || (depth == 2 && inImage && matches(bytes, keyAtDepth2, "url"))
                        if wanted, isServerPath(UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)])) {
                            offsets.append(start)
                        }
                    } else if depth == 1 {
                        keyAtDepth1 = start..<end
                    } else if depth == 2 {
                        keyAtDepth2 = start..<end
                    }
                    afterColon = false
                    index = end + 1
                    continue
                case UInt8(ascii: ":"):
                    afterColon = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth == 2 { inImage = byte == UInt8(ascii: "{") && afterColon && matches(bytes, keyAtDepth1, "image") }
                    afterColon = false
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                default:
                    afterColon = false
                }
                index += 1
            }
        }
        return offsets
    }

    /// A path here: `/` not followed by another `/` (`//host/…` names another server).
    private static func isServerPath<C: Collection<UInt8>>(_ url: C) -> Bool {
        var bytes = url.makeIterator()
        return bytes.next() == UInt8(ascii: "/") && bytes.next() != UInt8(ascii: "/")
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: StaticString) -> Bool {
        // A key is never empty, so a range that fits in `bytes` makes them non-empty, with an address.
        range.count == key.utf8CodeUnitCount && range.upperBound <= bytes.count
            && memcmp(bytes.baseAddress! + range.lowerBound, key.utf8Start, range.count) == 0
    }
}

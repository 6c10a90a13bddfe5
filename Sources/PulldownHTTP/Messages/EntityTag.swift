import Hashing

/// Entity tags (RFC 9110, section 8.8.3) and the `If-None-Match` check.
public enum EntityTag {
    /// A strong tag from the bytes' 64-bit FNV-1a hash: cheap, and stable across restarts.
    public static func strong(for bytes: [UInt8], suffix: String = "") -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return "\"" + Hex.encode(hash) + suffix + "\""
    }

    /// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET), or is `*`.
    static func matches(ifNoneMatch header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let wanted = opaque(etag)
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces()
            return tag == "*" || opaque(tag) == wanted
        }
    }

    /// Whether `If-Match` names `etag` (strong comparison, RFC 9110 13.1.1: a weak tag never
    /// matches), or is `*` (any current representation).
    public static func matches(ifMatch header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces()
            return tag == "*" || (!tag.hasPrefix("W/") && tag == etag)
        }
    }

    private static func opaque<S: StringProtocol>(_ tag: S) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}

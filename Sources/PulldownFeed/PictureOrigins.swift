import CJansson
import Glibc

/// The origins of the pictures an item draws from other servers: what the page's content policy
/// must allow (`img-src`), and nothing more. Kept by the store as items arrive (`FeedStoreWriting
/// .insertItems`), whatever brought them: a post, a data file, its `--watch`, a demo item.
///
/// Only an item's `avatar` and its `image`'s `url` are drawn; a path on this server needs no
/// origin (`'self'`). An origin is written as a policy names it: `https://cdn.example`,
/// `http://127.0.0.1:9000`, scheme and host in lower case, the scheme's own port left out. A
/// host a policy cannot name (an IPv6 address, a name with other characters than letters,
/// digits, `-` and `.`) gives none: such a picture is refused by the page, as any other is.
enum PictureOrigins {
    /// The picture origins of an item's own fields (`Item.userFields`: compact JSON object text).
    static func of(userFields: String) -> [String] {
        // Most items name no other server: those are not parsed.
        guard containsSchemeSeparator(userFields), let root = json_loads(userFields, 0, nil) else { return [] }
        defer { json_decref(root) }
        let image = json_object_get(root, "image")
        let urls = [json_object_get(root, "avatar"), image.flatMap { json_object_get($0, "url") }]
        return urls.compactMap { value in
            guard let value, let text = json_string_value(value) else { return nil }
            return origin(of: String(cString: text))
        }
    }

    /// The origin of an `http`/`https` URL as a content policy names it, or nil.
    public static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lowered.hasPrefix) else { return nil }
        let rest = lowered.dropFirst(scheme.count)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring?
        if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isHostByte) }) else { return nil }
        let defaultPort = scheme == "https://" ? "443" : "80"
        if let port {
            guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let number = Int(port), number <= 65535 else { return nil }
            if String(number) != defaultPort { return "\(scheme)\(host):\(number)" }
        }
        return scheme + host
    }

    /// A letter, a digit or `-`: what a policy's host may hold between its dots.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }

    /// Whether `text` holds `://` somewhere: found by `memchr` on the colons, which it has few of.
    private static func containsSchemeSeparator(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard var at = bytes.baseAddress else { return false }
            let end = at + bytes.count
            while at < end, let found = memchr(at, Int32(UInt8(ascii: ":")), end - at) {
                let colon = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                if end - colon > 2, colon[1] == UInt8(ascii: "/"), colon[2] == UInt8(ascii: "/") { return true }
                at = colon + 1
            }
            return false
        }
    }
}

extension Feed {
    /// The origins of the pictures the feed's items draw from other servers, sorted: every one
    /// any item arrived with since the feed was created or last reset.
    public func pictureOrigins() throws -> [String] {
        try store.read { try $0.pictureOrigins() }
    }
}

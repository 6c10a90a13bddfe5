import Glibc

/// A `Host` header read as RFC 9110 (section 7.2) has it, `uri-host [ ":" port ]` (RFC 3986):
/// the one reading of it, for the check every request passes and for every URL written from it.
///
/// Stricter than RFC 3986 where the URLs the server writes need it: a name is letters, digits
/// and `-._~` only (no percent-encoding, no sub-delimiters such as `;` or `,`, which no real host
/// name has and which would need escaping in a `Link` header or in markup), an IP literal is an
/// IPv6 address (`inet_pton`), and a port is 1 to 5 digits up to 65535. So a header that passes
/// can be written into a URL as it is.
public struct HostHeader: Sendable, Equatable {
    /// The host as written in a URL, lower case: `pc.local`, `192.168.1.20`, `[fd00::7]`.
    public let host: String
    /// The port as sent, nil without one.
    public let port: UInt16?

    /// `host[:port]` as a URL's authority.
    public var authority: String { port.map { "\(host):\($0)" } ?? host }

    /// The header's host and port, or nil when it is not `host[:port]`.
    public init?(_ header: String) {
        guard let parts = Self.read(header) else { return nil }
        host = Self.lowered(String(decoding: header.utf8.prefix(parts.hostLength), as: UTF8.self), parts.hasUpperCase)
        port = parts.port
    }

    /// Whether `header` is `host[:port]`. Every request is checked: it reads the bytes in place
    /// and builds nothing for a name.
    static func isValid(_ header: String) -> Bool {
        read(header) != nil
    }

    /// `header` as a URL's authority, in lower case, when it is `host[:port]`; nil otherwise. The
    /// header itself when it is already in lower case, as most are.
    public static func authority(_ header: String) -> String? {
        read(header).map { lowered(header, $0.hasUpperCase) }
    }

    private static func lowered(_ text: String, _ hasUpperCase: Bool) -> String {
        hasUpperCase ? text.lowercased() : text
    }

    private struct Parts {
        let hostLength: Int
        let port: UInt16?
        let hasUpperCase: Bool
    }

    private static func read(_ header: String) -> Parts? {
        if let parts = header.utf8.withContiguousStorageIfAvailable(parse) { return parts }
        var copy = header
        return copy.withUTF8(parse)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Parts? {
        guard let first = bytes.first else { return nil }
        var hostEnd = 0
        var hasUpperCase = false
        if first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostEnd = close + 1
            var address = in6_addr()
            let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<close]), as: UTF8.self)
            guard inet_pton(AF_INET6, literal, &address) == 1 else { return nil }
            hasUpperCase = bytes[1..<close].contains { $0 >= 0x41 && $0 <= 0x5A }
        } else {
            while hostEnd < bytes.count, bytes[hostEnd] != UInt8(ascii: ":") {
                let byte = bytes[hostEnd]
                guard isNameByte(byte) else { return nil }
                if byte >= 0x41 && byte <= 0x5A { hasUpperCase = true }
                hostEnd += 1
            }
            guard hostEnd > 0 else { return nil }
        }
        guard hostEnd < bytes.count else { return Parts(hostLength: hostEnd, port: nil, hasUpperCase: hasUpperCase) }
        guard bytes[hostEnd] == UInt8(ascii: ":"), (2...6).contains(bytes.count - hostEnd) else { return nil }
        var port = 0
        for digit in bytes[(hostEnd + 1)...] {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            port = port * 10 + Int(digit - 0x30)
        }
        guard port <= Int(UInt16.max) else { return nil }
        return Parts(hostLength: hostEnd, port: UInt16(port), hasUpperCase: hasUpperCase)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }
}

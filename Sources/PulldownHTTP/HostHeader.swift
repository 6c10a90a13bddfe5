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
        guard let parts = Self.split(header) else { return nil }
        let host = String(header[parts.host])
        // Lower case only when it is not already: most requests name the host as a URL has it.
        self.host = host.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? host.lowercased() : host
        port = parts.port
    }

    /// Whether `header` is `host[:port]`; allocates nothing for a name (every request is checked).
    public static func isValid(_ header: String) -> Bool {
        split(header) != nil
    }

    private static func split(_ header: String) -> (host: Range<String.Index>, port: UInt16?)? {
        let bytes = header.utf8
        guard let first = bytes.first else { return nil }
        let hostEnd: String.Index
        if first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostEnd = bytes.index(after: close)
            var address = in6_addr()
            let literal = String(header[bytes.index(after: bytes.startIndex)..<close])
            guard inet_pton(AF_INET6, literal, &address) == 1 else { return nil }
        } else {
            hostEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard hostEnd > bytes.startIndex, bytes[..<hostEnd].allSatisfy(isNameByte) else { return nil }
        }
        guard hostEnd < bytes.endIndex else { return (bytes.startIndex..<hostEnd, nil) }
        guard bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
        let digits = bytes[bytes.index(after: hostEnd)...]
        guard (1...5).contains(digits.count) else { return nil }
        var port = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            port = port * 10 + Int(digit - 0x30)
        }
        guard port <= Int(UInt16.max) else { return nil }
        return (bytes.startIndex..<hostEnd, UInt16(port))
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }
}

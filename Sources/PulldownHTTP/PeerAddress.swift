import Foundation

/// The address a request came from, as the socket's peer: IPv4 or IPv6, without the port.
///
/// Kept as its bytes, read from libmicrohttpd for every request (a copy of 16 bytes); written as
/// text only when someone asks (`description`).
public struct PeerAddress: Sendable, Hashable, CustomStringConvertible {
    private let isIPv6: Bool
    private let bytes: (UInt64, UInt64)

    /// The address of a socket's peer; nil for a family other than IPv4 and IPv6.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(isIPv6: false, bytes: (UInt64(ipv4), 0))
        case AF_INET6:
            let ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(isIPv6: true, bytes: withUnsafeBytes(of: ipv6) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) })
        default:
            return nil
        }
    }

    /// An address written as text (`127.0.0.1`, `::1`); for tests and for callers that have one.
    init?(_ text: String) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(isIPv6: false, bytes: (UInt64(ipv4.s_addr), 0))
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.init(isIPv6: true, bytes: withUnsafeBytes(of: ipv6) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) })
        } else {
            return nil
        }
    }

    private init(isIPv6: Bool, bytes: (UInt64, UInt64)) {
        self.isIPv6 = isIPv6
        self.bytes = bytes
    }

    /// An IPv4 address is written digit by digit into a small string, with nothing on the heap
    /// (the client doctor reads it for every request); an IPv6 one by inet_ntop.
    public var description: String {
        if !isIPv6 {
            // s_addr holds the address in network order: its first byte in memory is the first part.
            return withUnsafeBytes(of: UInt32(truncatingIfNeeded: bytes.0)) { parts in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { text in
                    var count = 0
                    for (index, part) in parts.enumerated() {
                        if index > 0 { text[count] = UInt8(ascii: "."); count += 1 }
                        for divisor in [100, 10, 1] as [UInt8] where part >= divisor || divisor == 1 {
                            text[count] = UInt8(ascii: "0") + part / divisor % 10
                            count += 1
                        }
                    }
                    return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
                }
            }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            var copy = bytes
            let written = withUnsafeBytes(of: &copy) {
                inet_ntop(isIPv6 ? AF_INET6 : AF_INET, $0.baseAddress, text.baseAddress, socklen_t(text.count))
            }
            return written == nil ? "" : String(cString: text.baseAddress!)
        }
    }

    public static func == (lhs: PeerAddress, rhs: PeerAddress) -> Bool {
        lhs.isIPv6 == rhs.isIPv6 && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isIPv6)
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }
}

import Foundation

/// The addresses other devices on the network can reach this machine at.
enum NetworkAddresses {
    /// True for a host only this machine can reach (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// True for a host that listens on every interface.
    static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host.isEmpty
    }

    /// The non-loopback addresses of this machine's interfaces that are up, IPv4 first, as a
    /// browser writes them in a URL (IPv6 in brackets). Link-local IPv6 (fe80::) is left out: a
    /// URL with a zone index is no use on a phone.
    static func interfaceAddresses(includingIPv6: Bool) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var ipv4: [String] = []
        var ipv6: [String] = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(current.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = current.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                if let text = numericHost(address, length: socklen_t(MemoryLayout<sockaddr_in>.size)) { ipv4.append(text) }
            case AF_INET6 where includingIPv6:
                if let text = numericHost(address, length: socklen_t(MemoryLayout<sockaddr_in6>.size)),
                   !text.lowercased().hasPrefix("fe80") {
                    ipv6.append("[\(text)]")
                }
            default:
                continue
            }
        }
        return unique(ipv4) + unique(ipv6)
    }

    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>, length: socklen_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}

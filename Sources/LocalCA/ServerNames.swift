import Foundation

/// The names a server certificate is issued for: DNS names and IP addresses, each written as a
/// client would put it in a URL's host (IPv6 without brackets).
public enum ServerNames {
    /// What every certificate covers, so the machine itself can always reach the server.
    public static let loopback = ["localhost", "127.0.0.1", "::1"]

    /// One subject alternative name: an address's bytes (4 or 16), or a DNS name.
    enum Name: Equatable {
        case address([UInt8])
        case dns(String)
    }

    /// `name` as a certificate holds it; brackets around an IPv6 address are dropped.
    static func parse(_ name: String) -> Name {
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return .address(withUnsafeBytes(of: &v4) { Array($0) })
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return .address(withUnsafeBytes(of: &v6) { Array($0) })
        }
        return .dns(bare.lowercased())
    }

    /// The usual text of an address of 4 or 16 bytes (`192.168.1.20`, `::1`); nil for other sizes.
    static func text(ofAddress bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)).map { String(cString: $0) }
        }
    }

    /// `names` in one spelling each (`[::1]` and `::1`, `LOCALHOST` and `localhost` are one),
    /// in their first order: the set a certificate must cover.
    public static func normalized(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.compactMap { name in
            let written: String
            switch parse(name) {
            case .address(let bytes): written = text(ofAddress: bytes) ?? name
            case .dns(let dns): written = dns
            }
            return written.isEmpty || !seen.insert(written).inserted ? nil : written
        }
    }
}

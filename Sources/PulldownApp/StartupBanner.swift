/// What start-up prints after the `Listening on …` line, so that a phone on the same network can
/// open the page: one URL per network address, and a QR code of the first.
public enum StartupBanner {
    public enum QRCode: Sendable, Equatable {
        /// When standard output is a terminal (not when a script reads it).
        case whenTerminal
        case always
        case never
    }

    /// The lines for a server listening on `host`:`port`. `interfaceAddresses` are this machine's
    /// network addresses (`NetworkAddresses.interfaceAddresses`); loopback hosts print nothing,
    /// since no other device can reach them.
    public static func lines(host: String, port: UInt16, interfaceAddresses: [String], qrCode: QRCode,
                             isTerminal: Bool) -> [String] {
        guard !NetworkAddresses.isLoopback(host) else { return [] }
        let addresses = NetworkAddresses.isWildcard(host) ? interfaceAddresses
            : [host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host]
        guard let first = addresses.first else {
            return ["On your network: no address found (is this machine connected to one?)"]
        }
        let urls = addresses.map { "http://\($0):\(port)/" }
        var lines = urls.map { "On your network: \($0)" }
        let showCode = qrCode == .always || (qrCode == .whenTerminal && isTerminal)
        if showCode, let code = TerminalQRCode.lines(for: "http://\(first):\(port)/") {
            lines.append("Scan it with a phone on the same network (\(urls[0])):")
            lines += code
        }
        return lines
    }

    /// This machine's network addresses, for `lines`.
    public static func interfaceAddresses(forHost host: String) -> [String] {
        NetworkAddresses.interfaceAddresses(includingIPv6: host.contains(":"))
    }
}

/// What start-up prints after the `Listening on …` line, so that a phone on the same network can
/// open the page: one URL per network address, the presenter's URLs (with the token the demo
/// API needs in the fragment, which browsers never send), and a QR code of the first presenter's
/// URL (of the first address when the demo API needs no token or is off).
public enum StartupBanner {
    public enum QRCode: Sendable, Equatable {
        /// When standard output is a terminal (not when a script reads it).
        case whenTerminal
        case always
        case never
    }

    /// The lines for a server listening on `host`:`port`. `interfaceAddresses` are this machine's
    /// network addresses (`NetworkAddresses.interfaceAddresses`); loopback hosts print nothing,
    /// since no other device can reach them. `presenterToken` is `Application.presenterToken`.
    public static func lines(host: String, port: UInt16, interfaceAddresses: [String], qrCode: QRCode,
                             isTerminal: Bool, presenterToken: String? = nil) -> [String] {
        guard !NetworkAddresses.isLoopback(host) else { return [] }
        let addresses = NetworkAddresses.isWildcard(host) ? interfaceAddresses
            : [host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host]
        func presenter(_ urls: [String]) -> [String] {
            presenterToken.map { token in urls.map { "Presenter: \($0)#demo=\(token)" } } ?? []
        }
        guard let first = addresses.first else {
            // Every interface includes this machine's own.
            return ["On your network: no address found (is this machine connected to one?)"]
                + presenter(["http://localhost:\(port)/"])
        }
        let urls = addresses.map { "http://\($0):\(port)/" }
        var lines = urls.map { "On your network: \($0)" } + presenter(urls)
        let showCode = qrCode == .always || (qrCode == .whenTerminal && isTerminal)
        // The presenter steers the demo from the phone, so the code carries the token; the
        // caption names the URL without it, so the token stays printed once.
        let scanned = presenterToken.map { "http://\(first):\(port)/#demo=\($0)" } ?? urls[0]
        if showCode, let code = TerminalQRCode.lines(for: scanned) {
            lines.append(presenterToken == nil ? "Scan it with a phone on the same network (\(urls[0])):"
                         : "Scan it with a phone on the same network to steer the demo from it (the first Presenter URL):")
            lines += code
        }
        return lines
    }

    /// This machine's network addresses, for `lines`.
    public static func interfaceAddresses(forHost host: String) -> [String] {
        NetworkAddresses.interfaceAddresses(includingIPv6: host.contains(":"))
    }
}

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

    /// Where a server with `--https` serves: HTTPS on `port`, and the trust page over plain HTTP
    /// on `trustPort` (the same port with `--https` alone, `--port` with `--https-port`).
    public struct HTTPS: Sendable, Equatable {
        public var port: UInt16
        public var trustPort: UInt16

        public init(port: UInt16, trustPort: UInt16) {
            self.port = port
            self.trustPort = trustPort
        }
    }

    /// The lines for a server listening on `host`:`port`. `interfaceAddresses` are this machine's
    /// network addresses (`NetworkAddresses.interfaceAddresses`); loopback hosts print nothing,
    /// since no other device can reach them. `presenterToken` is `Application.presenterToken`.
    /// With `https`, the URLs are its, and the code opens the trust page first, over plain HTTP
    /// (a phone cannot open the HTTPS page before it trusts the certificate authority).
    public static func lines(host: String, port: UInt16, interfaceAddresses: [String], qrCode: QRCode,
                             isTerminal: Bool, presenterToken: String? = nil, https: HTTPS? = nil) -> [String] {
        guard !NetworkAddresses.isLoopback(host) else { return [] }
        let addresses = NetworkAddresses.isWildcard(host) ? interfaceAddresses
            : [host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host]
        func presenter(_ urls: [String]) -> [String] {
            presenterToken.map { token in urls.map { "Presenter: \($0)#demo=\(token)" } } ?? []
        }
        let scheme = https == nil ? "http" : "https"
        let servedPort = https?.port ?? port
        guard let first = addresses.first else {
            // Every interface includes this machine's own.
            return ["On your network: no address found (is this machine connected to one?)"]
                + presenter(["\(scheme)://localhost:\(servedPort)/"])
        }
        let urls = addresses.map { "\(scheme)://\($0):\(servedPort)/" }
        var lines = urls.map { "On your network: \($0)" } + presenter(urls)
        let trust = https.map { "http://\(first):\($0.trustPort)/trust" }
        if let trust { lines.append("Trust it on a phone first: \(trust)") }
        let showCode = qrCode == .always || (qrCode == .whenTerminal && isTerminal)
        // The presenter steers the demo from the phone, so the code carries the token; the
        // caption names the URL without it, so the token stays printed once. Under HTTPS the
        // trust page passes the token on to the page (/trust/open keeps the fragment).
        let opened = trust ?? urls[0]
        let scanned = presenterToken.map { "\(trust ?? "\(scheme)://\(first):\(servedPort)/")#demo=\($0)" } ?? opened
        if showCode, let code = TerminalQRCode.lines(for: scanned) {
            if trust != nil {
                lines.append("Scan it with a phone on the same network: the trust page (\(opened)), then the page over HTTPS"
                             + (presenterToken == nil ? ":" : ", steering the demo:"))
            } else {
                lines.append(presenterToken == nil ? "Scan it with a phone on the same network (\(urls[0])):"
                             : "Scan it with a phone on the same network to steer the demo from it (the first Presenter URL):")
            }
            lines += code
        }
        return lines
    }

    /// This machine's network addresses, for `lines`.
    public static func interfaceAddresses(forHost host: String) -> [String] {
        NetworkAddresses.interfaceAddresses(includingIPv6: host.contains(":"))
    }
}

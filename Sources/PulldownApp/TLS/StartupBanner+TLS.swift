import LocalCA

extension StartupBanner {
    /// What start-up says about `--https` on this machine: what the authority did (created,
    /// issued), where its root is for a desktop browser to trust, and the trust page's URL.
    public static func tlsLines(_ ca: LocalCA, host: String, trustPort: UInt16) -> [String] {
        let shownHost = NetworkAddresses.isWildcard(host) ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return ca.notes.map { "HTTPS: \($0)" } + [
            "HTTPS: the certificate authority is \(ca.folder)/ca.pem (SHA-256 \(ca.rootFingerprint))",
            "HTTPS: to trust it on a phone or in a browser, open http://\(shownHost):\(trustPort)/trust",
        ]
    }
}

/// A private key and its certificate chain, as PEM, for a server that speaks TLS
/// (`ServerConfiguration.tls`). libmicrohttpd hands both to GnuTLS when the daemon starts.
public struct TLSIdentity: Sendable, Equatable {
    var privateKeyPEM: String
    /// The server's certificate first, then any intermediate; not the root the clients trust.
    var certificateChainPEM: String

    public init(privateKeyPEM: String, certificateChainPEM: String) {
        self.privateKeyPEM = privateKeyPEM
        self.certificateChainPEM = certificateChainPEM
    }
}

import CGnuTLS
import Foundation
import Hashing

/// A certificate authority kept in a folder, and the server certificate it issued for the names
/// this start listens on. The folder holds four files:
///
///     ca.pem          the root certificate (what phones and browsers are told to trust)
///     ca-key.pem      its private key (0600)
///     server.pem      the server certificate, for every name the server listens on
///     server-key.pem  its private key (0600)
///
/// The folder is made 0700 and every file is written whole under a temporary name, then renamed,
/// so a key is never readable by others, not even while it is written, and a start killed
/// half-way leaves no half a file. A lock on the folder keeps two starts from both creating a root.
public struct LocalCA: Sendable {
    public let folder: String
    /// The root certificate, as PEM and as DER (a `.crt` download, the iOS profile's payload).
    public let rootPEM: String
    public let rootDER: [UInt8]
    let rootSHA256: [UInt8]
    /// The root's common name, as a phone shows it in its list of certificates.
    let rootName: String
    public let serverKeyPEM: String
    public let serverCertificatePEM: String
    /// The names the server certificate covers.
    let serverNames: [String]
    /// What this start did, for a line each at start-up ("created …", "issued …").
    public let notes: [String]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens the authority in `folder` (creating the folder, the root and its key the first
    /// time) and a server certificate that covers `names`, issuing a new one when needed.
    public static func open(folder: String, names: [String], now: Date = Date()) throws(Failure) -> LocalCA {
        do {
            return try openLocked(folder: folder, names: ServerNames.normalized(names), now: now)
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(description: "cannot prepare the certificate authority in \(folder): \(error)")
        }
    }

    static let rootFile = "ca.pem"
    static let rootKeyFile = "ca-key.pem"
    static let serverFile = "server.pem"
    static let serverKeyFile = "server-key.pem"

    private static func openLocked(folder: String, names: [String], now: Date) throws -> LocalCA {
        let files = TLSFolder(path: folder)
        try files.create()
        let lock = try files.lock()
        defer { close(lock) }
        var notes: [String] = []

        let authority: CertificateAuthority
        if let rootPEM = try files.read(rootFile), let keyPEM = try files.read(rootKeyFile) {
            authority = CertificateAuthority(key: try PrivateKey.read(pem: keyPEM), certificate: try Certificate.read(pem: rootPEM))
            guard try authority.certificate.keyID() == authority.key.keyID() else {
                throw Failure(description: "\(folder)/\(rootFile) and \(rootKeyFile) do not belong together; "
                              + "move the folder away to start a new authority")
            }
        } else {
            guard try files.read(rootKeyFile) == nil, try files.read(rootFile) == nil else {
                throw Failure(description: "\(folder) holds only half of a certificate authority (\(rootFile) or \(rootKeyFile)); "
                              + "move the folder away to start a new one")
            }
            authority = try CertificateAuthority.create(now: now, machine: ProcessInfo.processInfo.hostName)
            // The key first: a root without its key would be of no use.
            try files.write(rootKeyFile, try authority.key.pem(), secret: true)
            try files.write(rootFile, try authority.certificate.pem(), secret: false)
            notes.append("created a certificate authority in \(folder) (trust \(rootFile) once on each device)")
        }
        if let mode = try files.permissionsOpenToOthers(rootKeyFile) {
            notes.append("warning: \(folder)/\(rootKeyFile) can be read by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }

        var stored: (key: PrivateKey, certificate: Certificate)?
        if let certificatePEM = try files.read(serverFile), let keyPEM = try files.read(serverKeyFile) {
            stored = try? (PrivateKey.read(pem: keyPEM), Certificate.read(pem: certificatePEM))
        }
        let described = try stored.map { stored in
            ServerCertificatePolicy.Stored(
                names: stored.certificate.subjectAlternativeNames(), expiration: stored.certificate.expiration,
                isIssuedByAuthority: stored.certificate.isIssued(by: authority.certificate),
                matchesKey: try stored.certificate.keyID() == stored.key.keyID())
        }
        let server: (key: PrivateKey, certificate: Certificate)
        switch ServerCertificatePolicy.decide(stored: described, wanted: names, now: now) {
        case .reuse:
            // The policy reuses only a stored certificate.
            server = stored!
        case .issue(let reason):
            server = try authority.issue(for: names, now: now)
            try files.write(serverKeyFile, try server.key.pem(), secret: true)
            try files.write(serverFile, try server.certificate.pem(), secret: false)
            notes.append("issued a server certificate for \(names.joined(separator: ", ")) (\(reason))")
        }

        // Read back from what was written, as the next start will read it (GnuTLS reads the
        // extensions of a certificate it has just signed only once it is encoded).
        let serverPEM = try server.certificate.pem()
        return LocalCA(folder: folder, rootPEM: try authority.certificate.pem(), rootDER: try authority.certificate.der(),
                       rootSHA256: try authority.certificate.fingerprintSHA256(), rootName: authority.certificate.commonName(),
                       serverKeyPEM: try server.key.pem(), serverCertificatePEM: serverPEM,
                       serverNames: try Certificate.read(pem: serverPEM).subjectAlternativeNames(), notes: notes)
    }

    /// The root's SHA-256 fingerprint as a phone's certificate details show it (`AB:CD:…`).
    public var rootFingerprint: String {
        Hex.uppercase(rootSHA256, separator: ":")
    }
}

extension Certificate {
    func commonName() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        var size = buffer.count
        guard gnutls_x509_crt_get_dn_by_oid(handle, GNUTLS_OID_X520_COMMON_NAME, 0, 0, &buffer, &size) >= 0 else { return "" }
        return String(decoding: buffer.prefix(size).prefix { $0 != 0 }, as: UTF8.self)
    }
}

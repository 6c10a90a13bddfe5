import CGnuTLS
import Foundation

/// A certificate authority of this machine's own: a self-signed root that issues server
/// certificates. Phones and browsers that trust its root trust every server certificate it issues.
struct CertificateAuthority {
    let key: PrivateKey
    let certificate: Certificate

    /// A root lasts ten years: a phone that trusted it should not have to again.
    static let rootLifetime: TimeInterval = 3650 * 86_400
    /// A server certificate lasts 397 days, within the 398 that Apple and Chrome accept at most.
    static let serverLifetime: TimeInterval = 397 * 86_400
    /// Certificates start an hour early, for a phone whose clock is a little behind this one.
    static let backdating: TimeInterval = 3600

    /// A new root, named after this machine so two laptops' roots can be told apart on a phone.
    static func create(now: Date, machine: String) throws(X509Error) -> CertificateAuthority {
        let key = try PrivateKey.generate()
        let certificate = try Certificate.empty()
        try prepare(certificate, key: key, commonName: "Pulldown local CA (\(machine))",
                    from: now, lifetime: rootLifetime)
        // A CA that signs server certificates only: none below it may sign (path length 0).
        try check("cannot mark the certificate as a CA", gnutls_x509_crt_set_basic_constraints(certificate.handle, 1, 0))
        try check("cannot set the key usage", gnutls_x509_crt_set_key_usage(
            certificate.handle, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN)))
        try check("cannot sign the CA certificate", gnutls_x509_crt_sign2(
            certificate.handle, certificate.handle, key.handle, GNUTLS_DIG_SHA256, 0))
        return CertificateAuthority(key: key, certificate: certificate)
    }

    /// A server certificate for `names` (DNS names and IP addresses) and a new key for it.
    func issue(for names: [String], now: Date) throws(X509Error) -> (key: PrivateKey, certificate: Certificate) {
        let key = try PrivateKey.generate()
        let certificate = try Certificate.empty()
        try Self.prepare(certificate, key: key, commonName: "Pulldown server", from: now, lifetime: Self.serverLifetime)
        try check("cannot mark the certificate as a server's", gnutls_x509_crt_set_basic_constraints(certificate.handle, 0, -1))
        try check("cannot set the key usage", gnutls_x509_crt_set_key_usage(certificate.handle, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)))
        try check("cannot set the key purpose", gnutls_x509_crt_set_key_purpose_oid(certificate.handle, GNUTLS_KP_TLS_WWW_SERVER, 0))
        for name in names {
            switch ServerNames.parse(name) {
            case .address(let bytes):
                try check("cannot name \(name)", bytes.withUnsafeBytes {
                    gnutls_x509_crt_set_subject_alt_name(certificate.handle, GNUTLS_SAN_IPADDRESS, $0.baseAddress,
                                                         UInt32($0.count), UInt32(GNUTLS_FSAN_APPEND))
                })
            case .dns(let dns):
                try check("cannot name \(name)", gnutls_x509_crt_set_subject_alt_name(
                    certificate.handle, GNUTLS_SAN_DNSNAME, dns, UInt32(dns.utf8.count), UInt32(GNUTLS_FSAN_APPEND)))
            }
        }
        let authorityKeyID = try self.certificate.keyID()
        try check("cannot name the issuer's key", gnutls_x509_crt_set_authority_key_id(
            certificate.handle, authorityKeyID, authorityKeyID.count))
        try check("cannot sign the server certificate", gnutls_x509_crt_sign2(
            certificate.handle, self.certificate.handle, self.key.handle, GNUTLS_DIG_SHA256, 0))
        return (key, certificate)
    }

    /// What both kinds share: version 3, a random serial, the subject, the validity, the key.
    private static func prepare(_ certificate: Certificate, key: PrivateKey, commonName: String,
                                from now: Date, lifetime: TimeInterval) throws(X509Error) {
        let handle = certificate.handle
        try check("cannot set the version", gnutls_x509_crt_set_version(handle, 3))
        // 16 random bytes, the top bit clear so the number stays positive.
        var serial = [UInt8](repeating: 0, count: 16)
        try check("cannot draw a serial number", gnutls_rnd(GNUTLS_RND_NONCE, &serial, serial.count))
        serial[0] &= 0x7f
        try check("cannot set the serial number", gnutls_x509_crt_set_serial(handle, serial, serial.count))
        try check("cannot set the subject", gnutls_x509_crt_set_dn_by_oid(
            handle, GNUTLS_OID_X520_ORGANIZATION_NAME, 0, "Pulldown", 8))
        try check("cannot set the subject", gnutls_x509_crt_set_dn_by_oid(
            handle, GNUTLS_OID_X520_COMMON_NAME, 0, commonName, UInt32(commonName.utf8.count)))
        let start = now.timeIntervalSince1970 - backdating
        try check("cannot set the start", Int32(gnutls_x509_crt_set_activation_time(handle, time_t(start))))
        try check("cannot set the end", Int32(gnutls_x509_crt_set_expiration_time(handle, time_t(now.timeIntervalSince1970 + lifetime))))
        try check("cannot set the key", gnutls_x509_crt_set_key(handle, key.handle))
        let keyID = try key.keyID()
        try check("cannot name the key", gnutls_x509_crt_set_subject_key_id(handle, keyID, keyID.count))
    }
}

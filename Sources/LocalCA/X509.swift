import CGnuTLS
import Foundation

/// A failure of GnuTLS, with what was being done and GnuTLS's own words.
struct X509Error: Error, CustomStringConvertible {
    public let description: String

    init(_ what: String, _ code: Int32) {
        description = "\(what): \(String(cString: gnutls_strerror(code)))"
    }

    init(_ description: String) {
        self.description = description
    }
}

/// Calls a GnuTLS function and turns a negative result into an `X509Error`.
@discardableResult
func check(_ what: String, _ result: Int32) throws(X509Error) -> Int32 {
    guard result >= 0 else { throw X509Error(what, result) }
    return result
}

/// The bytes GnuTLS allocated in `datum`, copied, and the allocation freed.
func take(_ datum: inout gnutls_datum_t) -> [UInt8] {
    defer { pulldown_gnutls_free(datum.data) }
    return Array(UnsafeBufferPointer(start: datum.data, count: Int(datum.size)))
}

/// `bytes` seen as a GnuTLS datum for the length of `body`.
@discardableResult
func withDatum<T>(_ bytes: [UInt8], _ body: (inout gnutls_datum_t) throws(X509Error) -> T) throws(X509Error) -> T {
    var copy = bytes
    return try copy.withUnsafeMutableBufferPointer { buffer throws(X509Error) in
        var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
        return try body(&datum)
    }
}

/// An ECDSA P-256 private key: small, fast to sign with, and accepted by every phone and browser.
final class PrivateKey {
    let handle: gnutls_x509_privkey_t

    private init(handle: gnutls_x509_privkey_t) {
        self.handle = handle
    }

    deinit {
        gnutls_x509_privkey_deinit(handle)
    }

    private static func empty() throws(X509Error) -> PrivateKey {
        var handle: gnutls_x509_privkey_t?
        try check("cannot make a key", gnutls_x509_privkey_init(&handle))
        // GnuTLS sets the handle whenever the init succeeds.
        return PrivateKey(handle: handle!)
    }

    static func generate() throws(X509Error) -> PrivateKey {
        let key = try empty()
        try check("cannot generate a key", gnutls_x509_privkey_generate(
            key.handle, GNUTLS_PK_ECDSA, pulldown_gnutls_curve_bits(GNUTLS_ECC_CURVE_SECP256R1), 0))
        return key
    }

    static func read(pem: String) throws(X509Error) -> PrivateKey {
        let key = try empty()
        try withDatum(Array(pem.utf8)) { datum throws(X509Error) in
            try check("cannot read the key", gnutls_x509_privkey_import2(key.handle, &datum, GNUTLS_X509_FMT_PEM, nil, 0))
        }
        return key
    }

    /// Unencrypted PKCS #8 (`BEGIN PRIVATE KEY`): its file's permissions protect it.
    func pem() throws(X509Error) -> String {
        var datum = gnutls_datum_t()
        try check("cannot write the key", gnutls_x509_privkey_export2_pkcs8(
            handle, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &datum))
        return String(decoding: take(&datum), as: UTF8.self)
    }

    /// The SHA-1 of its public key, as a certificate of it names it.
    func keyID() throws(X509Error) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try check("cannot identify the key", gnutls_x509_privkey_get_key_id(handle, 0, &buffer, &size))
        return Array(buffer.prefix(size))
    }
}

/// An X.509 certificate, being written or read.
final class Certificate {
    let handle: gnutls_x509_crt_t

    private init(handle: gnutls_x509_crt_t) {
        self.handle = handle
    }

    deinit {
        gnutls_x509_crt_deinit(handle)
    }

    static func empty() throws(X509Error) -> Certificate {
        var handle: gnutls_x509_crt_t?
        try check("cannot make a certificate", gnutls_x509_crt_init(&handle))
        // GnuTLS sets the handle whenever the init succeeds.
        return Certificate(handle: handle!)
    }

    static func read(pem: String) throws(X509Error) -> Certificate {
        let certificate = try empty()
        try withDatum(Array(pem.utf8)) { datum throws(X509Error) in
            try check("cannot read the certificate", gnutls_x509_crt_import(certificate.handle, &datum, GNUTLS_X509_FMT_PEM))
        }
        return certificate
    }

    func pem() throws(X509Error) -> String {
        String(decoding: try export(GNUTLS_X509_FMT_PEM), as: UTF8.self)
    }

    func der() throws(X509Error) -> [UInt8] {
        try export(GNUTLS_X509_FMT_DER)
    }

    private func export(_ format: gnutls_x509_crt_fmt_t) throws(X509Error) -> [UInt8] {
        var datum = gnutls_datum_t()
        try check("cannot write the certificate", gnutls_x509_crt_export2(handle, format, &datum))
        return take(&datum)
    }

    /// The SHA-1 of the certified public key.
    func keyID() throws(X509Error) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try check("cannot identify the certificate's key", gnutls_x509_crt_get_key_id(handle, 0, &buffer, &size))
        return Array(buffer.prefix(size))
    }

    func fingerprintSHA256() throws(X509Error) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var size = buffer.count
        try check("cannot take the certificate's fingerprint", gnutls_x509_crt_get_fingerprint(handle, GNUTLS_DIG_SHA256, &buffer, &size))
        return buffer
    }

    var expiration: Date {
        Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_expiration_time(handle)))
    }

    /// The subject alternative names: DNS names and IP addresses, as `ServerNames` writes them.
    func subjectAlternativeNames() -> [String] {
        var names: [String] = []
        for index in 0... {
            var buffer = [UInt8](repeating: 0, count: 512)
            var size = buffer.count
            var critical: UInt32 = 0
            let type = gnutls_x509_crt_get_subject_alt_name(handle, UInt32(index), &buffer, &size, &critical)
            if type < 0 { break }
            let value = Array(buffer.prefix(size))
            switch gnutls_x509_subject_alt_name_t(UInt32(type)) {
            case GNUTLS_SAN_DNSNAME: names.append(String(decoding: value, as: UTF8.self))
            case GNUTLS_SAN_IPADDRESS: if let address = ServerNames.text(ofAddress: value) { names.append(address) }
            default: continue
            }
        }
        return names
    }

    /// Whether `authority` signed this certificate (and the signature holds).
    func isIssued(by authority: Certificate) -> Bool {
        var status: UInt32 = 0
        var list: [gnutls_x509_crt_t?] = [authority.handle]
        let result = gnutls_x509_crt_verify(handle, &list, 1, 0, &status)
        return result >= 0 && status == 0
    }
}

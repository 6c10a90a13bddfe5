import Foundation
import XCTest
@testable import LocalCA

final class LocalCATests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "localca-\(UUID().uuidString)/tls"
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
    }

    private func mode(_ name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: name.isEmpty ? folder : folder + "/" + name)
        return (attributes[.posixPermissions] as! NSNumber).intValue
    }

    func testTheFirstOpenCreatesARootAndAServerCertificateForEveryName() throws {
        let names = ["localhost", "127.0.0.1", "::1", "[fd00::20]", "192.168.1.20"]
        let ca = try LocalCA.open(folder: folder, names: names)
        XCTAssertEqual(ca.serverNames, ["localhost", "127.0.0.1", "::1", "fd00::20", "192.168.1.20"])
        XCTAssertTrue(ca.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        XCTAssertTrue(ca.serverKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        XCTAssertTrue(ca.rootName.hasPrefix("Pulldown local CA ("))
        XCTAssertEqual(ca.notes.count, 2, "\(ca.notes)")
        let root = try Certificate.read(pem: ca.rootPEM)
        let server = try Certificate.read(pem: ca.serverCertificatePEM)
        XCTAssertTrue(server.isIssued(by: root))
        XCTAssertFalse(root.isIssued(by: server))
        XCTAssertEqual(try root.der(), ca.rootDER)
        XCTAssertEqual(ca.rootFingerprint.count, 32 * 3 - 1)
    }

    func testTheFingerprintAndTheProfilesUUIDsAreUppercaseHexAndItsIdentifierLowercase() throws {
        let ca = try LocalCA.open(folder: folder, names: ["localhost"])
        XCTAssertEqual(ca.rootFingerprint, ca.rootSHA256.map { String(format: "%02X", $0) }.joined(separator: ":"))
        XCTAssertEqual(ConfigurationProfile.uuid(from: Array(0..<16)), "00010203-0405-8607-8809-0A0B0C0D0E0F")
        let profile = String(decoding: ConfigurationProfile.profile(for: ca), as: UTF8.self)
        let digits = ca.rootSHA256.prefix(8).map { String(format: "%02x", $0) }.joined()
        XCTAssertTrue(profile.contains("<string>dev.pulldown.ca.\(digits)</string>"), profile)
    }

    func testKeysAreReadableByTheOwnerOnlyAndTheFolderEnterableByTheOwnerOnly() throws {
        _ = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        XCTAssertEqual(try mode(""), 0o700)
        XCTAssertEqual(try mode("ca-key.pem"), 0o600)
        XCTAssertEqual(try mode("server-key.pem"), 0o600)
        XCTAssertEqual(try mode("ca.pem") & 0o077 & ~0o044, 0, "a certificate is public, but no one else may write it")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(left, [])
    }

    func testASecondOpenReusesTheRootAndTheServerCertificate() throws {
        let first = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        let second = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        XCTAssertEqual(second.rootPEM, first.rootPEM)
        XCTAssertEqual(second.serverCertificatePEM, first.serverCertificatePEM)
        XCTAssertEqual(second.serverKeyPEM, first.serverKeyPEM)
        XCTAssertEqual(second.notes, [])
    }

    func testANewAddressGetsANewServerCertificateFromTheSameRoot() throws {
        let first = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        let second = try LocalCA.open(folder: folder, names: ServerNames.loopback + ["10.0.0.7"])
        XCTAssertEqual(second.rootPEM, first.rootPEM)
        XCTAssertNotEqual(second.serverCertificatePEM, first.serverCertificatePEM)
        XCTAssertEqual(second.serverNames, ServerNames.loopback + ["10.0.0.7"])
        XCTAssertEqual(second.notes, ["issued a server certificate for localhost, 127.0.0.1, ::1, 10.0.0.7 (new name: 10.0.0.7)"])
        XCTAssertTrue(try Certificate.read(pem: second.serverCertificatePEM).isIssued(by: Certificate.read(pem: first.rootPEM)))
    }

    func testACertificateFromAnotherRootIsReplaced() throws {
        let other = NSTemporaryDirectory() + "localca-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: other) }
        _ = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        _ = try LocalCA.open(folder: other, names: ServerNames.loopback)
        for file in ["server.pem", "server-key.pem"] {
            try FileManager.default.removeItem(atPath: folder + "/" + file)
            try FileManager.default.copyItem(atPath: other + "/" + file, toPath: folder + "/" + file)
        }
        let reopened = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        XCTAssertEqual(reopened.notes, ["issued a server certificate for localhost, 127.0.0.1, ::1 (the one kept was not issued by this authority)"])
    }

    func testHalfAnAuthorityIsRefusedNotReplaced() throws {
        _ = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        try FileManager.default.removeItem(atPath: folder + "/ca.pem")
        XCTAssertThrowsError(try LocalCA.open(folder: folder, names: ServerNames.loopback)) { error in
            XCTAssertTrue("\(error)".contains("only half of a certificate authority"), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/ca-key.pem"), "the key is left alone")
    }

    func testAKeyOthersCanReadIsPointedOut() throws {
        _ = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        chmod(folder + "/ca-key.pem", 0o644)
        let reopened = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        XCTAssertEqual(reopened.notes.count, 1)
        XCTAssertTrue(reopened.notes[0].contains("can be read by others (mode 644)"), reopened.notes[0])
    }
}

final class ServerCertificatePolicyTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func stored(_ names: [String], daysLeft: Double = 300, issued: Bool = true, key: Bool = true) -> ServerCertificatePolicy.Stored {
        .init(names: names, expiration: now.addingTimeInterval(daysLeft * 86_400), isIssuedByAuthority: issued, matchesKey: key)
    }

    func testTheSameNamesOrFewerReuseTheCertificate() {
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: stored(["localhost", "::1", "10.0.0.2"]), wanted: ["[::1]", "LOCALHOST"], now: now), .reuse)
    }

    func testANewNameAnEndingCertificateOrAStrangerIsIssuedAgain() {
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: nil, wanted: ["localhost"], now: now), .issue(reason: "none yet"))
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: stored(["localhost"]), wanted: ["localhost", "10.0.0.2", "10.0.0.3"], now: now),
                       .issue(reason: "new names: 10.0.0.2, 10.0.0.3"))
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: stored(["localhost"], daysLeft: 29), wanted: ["localhost"], now: now),
                       .issue(reason: "the one kept ends within 30 days"))
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: stored(["localhost"], issued: false), wanted: ["localhost"], now: now),
                       .issue(reason: "the one kept was not issued by this authority"))
        XCTAssertEqual(ServerCertificatePolicy.decide(stored: stored(["localhost"], key: false), wanted: ["localhost"], now: now),
                       .issue(reason: "the one kept does not match its key"))
    }

    func testNamesAreComparedInOneSpelling() {
        XCTAssertEqual(ServerNames.normalized(["[::1]", "::1", "0:0:0:0:0:0:0:1", "LocalHost", "localhost", "127.0.0.1"]),
                       ["::1", "localhost", "127.0.0.1"])
    }
}

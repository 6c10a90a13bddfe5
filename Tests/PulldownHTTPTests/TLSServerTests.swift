import Foundation
import LocalCA
import XCTest
@testable import PulldownHTTP

/// A server with a TLS identity: plain HTTP on its port reaches the cleartext handler, and a key
/// that is no key is a start error. (TLS itself is spoken in the live tests, with curl.)
final class TLSServerTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "tls-server-\(UUID().uuidString)"
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func configuration(identity: TLSIdentity) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.tls = identity
        return configuration
    }

    func testPlainHTTPOnATLSPortGoesToTheCleartextHandlerAndSaysSo() throws {
        let ca = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        let identity = TLSIdentity(privateKeyPEM: ca.serverKeyPEM, certificateChainPEM: ca.serverCertificatePEM)
        let server = try HTTPServer(configuration: configuration(identity: identity),
                                    handler: { _, responder in responder.send(.text("over TLS")) },
                                    cleartextHandler: { request, responder in responder.send(.text("plain, isTLS \(request.isTLS)")) })
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "plain, isTLS false")
        // Kept alive like any other connection.
        try client.send("GET /y HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain, isTLS false")
    }

    func testWithoutACleartextHandlerPlainHTTPIsToldThePortSpeaksHTTPS() throws {
        let ca = try LocalCA.open(folder: folder, names: ServerNames.loopback)
        let identity = TLSIdentity(privateKeyPEM: ca.serverKeyPEM, certificateChainPEM: ca.serverCertificatePEM)
        let server = try HTTPServer(configuration: configuration(identity: identity)) { _, responder in responder.send(.text("x")) }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.text.contains("This port speaks HTTPS"), response.text)
    }

    func testAKeyThatIsNoKeyIsAStartError() {
        let identity = TLSIdentity(privateKeyPEM: "not a key", certificateChainPEM: "not a certificate")
        XCTAssertThrowsError(try HTTPServer(configuration: configuration(identity: identity)) { _, responder in responder.send(.text("x")) }) { error in
            XCTAssertTrue("\(error)".contains("TLS key or certificate"), "\(error)")
        }
    }
}

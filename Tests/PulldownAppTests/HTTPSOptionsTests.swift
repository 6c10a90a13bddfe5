import XCTest
@testable import PulldownApp

final class HTTPSOptionsTests: XCTestCase {
    func testHTTPSIsOffUntilAskedForAndItsVariableAsksToo() throws {
        let plain = try ConfigurationParser.parse([])
        XCTAssertFalse(plain.https)
        XCTAssertNil(plain.httpsPort)
        XCTAssertNil(plain.tlsFolder)
        XCTAssertTrue(try ConfigurationParser.parse([], environment: ["PULLDOWN_HTTPS": "1"]).https)
        XCTAssertTrue(try ConfigurationParser.parse(["--https"]).https)
    }

    func testAnHTTPSPortImpliesHTTPSAndMustDifferFromThePlainPort() throws {
        let both = try ConfigurationParser.parse(["--https-port", "8443", "--tls-dir", "/tmp/ca"])
        XCTAssertTrue(both.https)
        XCTAssertEqual(both.httpsPort, 8443)
        XCTAssertEqual(both.tlsFolder, "/tmp/ca")
        XCTAssertThrowsError(try ConfigurationParser.parse(["--port", "8443", "--https-port", "8443"])) { error in
            XCTAssertEqual("\(error)", "--https-port must differ from --port (8443); for HTTPS on one port, --https alone")
        }
        XCTAssertNoThrow(try ConfigurationParser.parse(["--port", "0", "--https-port", "0"]), "two free ports")
    }
}

final class StartupBannerHTTPSTests: XCTestCase {
    func testUnderHTTPSTheURLsAreHTTPSAndTheCodeOpensTheTrustPageWithTheToken() throws {
        let lines = StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: ["192.168.1.20"], qrCode: .always,
                                        isTerminal: false, presenterToken: "s3cret-token",
                                        https: .init(port: 8080, trustPort: 8080))
        XCTAssertEqual(Array(lines.prefix(4)), [
            "On your network: https://192.168.1.20:8080/",
            "Presenter: https://192.168.1.20:8080/#demo=s3cret-token",
            "Trust it on a phone first: http://192.168.1.20:8080/trust",
            "Scan it with a phone on the same network: the trust page (http://192.168.1.20:8080/trust), then the page over HTTPS, steering the demo:",
        ])
        XCTAssertEqual(Array(lines.dropFirst(4)), TerminalQRCode.lines(for: "http://192.168.1.20:8080/trust#demo=s3cret-token"))
    }

    func testWithAnHTTPSPortTheTrustPageIsOnThePlainOne() {
        let lines = StartupBanner.lines(host: "192.168.1.20", port: 8080, interfaceAddresses: [], qrCode: .never,
                                        isTerminal: false, https: .init(port: 8443, trustPort: 8080))
        XCTAssertEqual(lines, ["On your network: https://192.168.1.20:8443/", "Trust it on a phone first: http://192.168.1.20:8080/trust"])
    }
}

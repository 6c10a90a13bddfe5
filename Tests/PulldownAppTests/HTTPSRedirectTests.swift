@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

final class HTTPSRedirectTests: XCTestCase {
    func testTheSameHostPortAndTargetOnHTTPS() throws {
        let request = try XCTUnwrap(HTTPRequest(method: "GET", rawTarget: "/api/items?limit=5&before=a%26b",
                                                headers: HTTPHeaders([("Host", "192.168.1.20:8080")])))
        let response = HTTPSRedirect.response(to: request)
        XCTAssertEqual(response.status, 307)
        XCTAssertEqual(response.headers["Location"], "https://192.168.1.20:8080/api/items?limit=5&before=a%26b")
        XCTAssertEqual(response.headers["Cache-Control"], "no-store")
        XCTAssertNil(response.headers["Strict-Transport-Security"])
    }

    func testAnotherPortReplacesTheHostsAndIPv6KeepsItsBrackets() {
        XCTAssertEqual(HTTPSRedirect.location(hostHeader: "[fd00::7]:8080", port: 8443), "https://[fd00::7]:8443/")
        XCTAssertEqual(HTTPSRedirect.location(hostHeader: "pc.local", port: 443), "https://pc.local/")
        XCTAssertEqual(HTTPSRedirect.location(hostHeader: "pc.local:80", port: nil, rawPath: "/x"), "https://pc.local:80/x")
    }

    func testAHostHeaderThatIsNoHostGetsNoRedirect() throws {
        for header in ["", "evil.example/path", "a b", "[::1", "[zz]:80", "host:", "host:80:80", "host:123456", "@x"] {
            XCTAssertNil(HTTPSRedirect.location(hostHeader: header, port: 8443), header)
        }
        let request = try XCTUnwrap(HTTPRequest(method: "GET", rawTarget: "/"))
        XCTAssertEqual(HTTPSRedirect.response(to: request).status, 400)
    }
}

final class TLSSetupTests: XCTestCase {
    func testTheAuthorityIsKeptBesideAStoreFileElseInTheUsersDataFolder() {
        var configuration = Configuration()
        configuration.databasePath = "/data/feed.sqlite"
        let environment = ["HOME": "/home/ana", "XDG_DATA_HOME": "/home/ana/.data"]
        XCTAssertEqual(TLSSetup.folder(for: configuration, environment: environment), "/data/feed.sqlite.tls")
        configuration.databasePath = ":memory:"
        XCTAssertEqual(TLSSetup.folder(for: configuration, environment: environment), "/home/ana/.data/pulldown/tls")
        configuration.databasePath = "postgres://u@db/x"
        XCTAssertEqual(TLSSetup.folder(for: configuration, environment: ["HOME": "/home/ana"]), "/home/ana/.local/share/pulldown/tls")
        // Whatever --db opens as PostgreSQL or in memory has no file to be beside.
        for location in ["POSTGRESQL://u@db/x", ""] {
            configuration.databasePath = location
            XCTAssertEqual(TLSSetup.folder(for: configuration, environment: ["HOME": "/home/ana"]),
                           "/home/ana/.local/share/pulldown/tls", location)
        }
        XCTAssertNil(TLSSetup.folder(for: configuration, environment: [:]))
        configuration.tlsFolder = "/etc/pulldown"
        XCTAssertEqual(TLSSetup.folder(for: configuration, environment: [:]), "/etc/pulldown")
    }

    func testTheCertificateCoversLoopbackAndEveryAddressListenedOn() {
        XCTAssertEqual(TLSSetup.names(host: "127.0.0.1", interfaceAddresses: ["10.0.0.2"]), ["localhost", "127.0.0.1", "::1"])
        XCTAssertEqual(TLSSetup.names(host: "0.0.0.0", interfaceAddresses: ["192.168.1.20", "[fd00::7]"]),
                       ["localhost", "127.0.0.1", "::1", "192.168.1.20", "fd00::7"])
        XCTAssertEqual(TLSSetup.names(host: "192.168.1.20", interfaceAddresses: ["10.0.0.2"]),
                       ["localhost", "127.0.0.1", "::1", "192.168.1.20"])
        XCTAssertEqual(TLSSetup.names(host: "pc.local", interfaceAddresses: []), ["localhost", "127.0.0.1", "::1", "pc.local"])
    }
}

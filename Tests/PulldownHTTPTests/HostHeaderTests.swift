import XCTest
@testable import PulldownHTTP

/// `Host` as RFC 9110 and 3986 have it, strictly enough to be written into a URL as it is.
final class HostHeaderTests: XCTestCase {
    func testNamesAddressesAndPortsAreRead() throws {
        for (header, host, port) in [("localhost", "localhost", nil), ("127.0.0.1:8080", "127.0.0.1", 8080),
                                     ("PC.Local:80", "pc.local", 80), ("[::1]:8443", "[::1]", 8443),
                                     ("[fd00::7]", "[fd00::7]", nil), ("my_host-1.example.~", "my_host-1.example.~", nil),
                                     ("x:65535", "x", 65535)] as [(String, String, UInt16?)] {
            let parsed = try XCTUnwrap(HostHeader(header), header)
            XCTAssertEqual(parsed.host, host, header)
            XCTAssertEqual(parsed.port, port, header)
            XCTAssertTrue(HostHeader.isValid(header), header)
        }
        XCTAssertEqual(HostHeader("[::1]:8443")?.authority, "[::1]:8443")
        XCTAssertEqual(HostHeader("pc.local")?.authority, "pc.local")
    }

    func testAnythingThatCouldInjectIntoAURLIsRefused() {
        for header in ["", ":80", "host:", "host:80:80", "host:123456", "host:65536", "host:8a", "a b", "evil.example/path",
                       "evil.example?x", "evil.example#x", "user@evil.example", "evil.example>; rel=\"next\"", "a,b", "a;b",
                       "%65vil", "[::1", "[zz]:80", "[::1]x", "[::1]:", "é.example", "a\"b", "<x>", "a\tb"] {
            XCTAssertNil(HostHeader(header), header)
            XCTAssertFalse(HostHeader.isValid(header), header)
        }
    }
}

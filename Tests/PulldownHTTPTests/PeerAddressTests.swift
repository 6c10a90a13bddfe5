import XCTest
@testable import PulldownHTTP

final class PeerAddressTests: XCTestCase {
    func testAddressesAreWrittenAsTheyAreUsuallyWritten() {
        for text in ["127.0.0.1", "192.168.1.20", "::1", "2001:db8::8a2e:370:7334", "::ffff:10.0.0.1"] {
            XCTAssertEqual(PeerAddress(text)?.description, text)
        }
    }

    func testAnythingElseIsNoAddress() {
        for text in ["", "localhost", "1.2.3", "::g"] {
            XCTAssertNil(PeerAddress(text), text)
        }
    }

    func testTheSameAddressIsEqualAndHashesTheSameAndAnotherFamilyIsNot() {
        XCTAssertEqual(PeerAddress("10.0.0.1"), PeerAddress("10.0.0.1"))
        XCTAssertEqual(Set([PeerAddress("10.0.0.1"), PeerAddress("10.0.0.1")]).count, 1)
        XCTAssertNotEqual(PeerAddress("0.0.0.1"), PeerAddress("::1"))
    }
}

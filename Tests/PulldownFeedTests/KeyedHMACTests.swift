import XCTest
import Hashing
@testable import PulldownFeed

/// The MAC itself, without a store.
class KeyedHMACTests: XCTestCase {
    /// RFC 4231, test cases 1 and 2; and a keyed context reused for many messages stays keyed.
    func testKeyedHMACGivesTheRFC4231Digests() {
        let jefe = KeyedHMAC(key: Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        for _ in 0..<3 {
            XCTAssertEqual(Hex.encode(jefe.digest(of: message)),
                           "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }
        let twenty = KeyedHMAC(key: [UInt8](repeating: 0x0b, count: 20))
        XCTAssertEqual(Hex.encode(twenty.digest(of: Array("Hi There".utf8))),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    func testAWholeNumberIsItsSixteenDigitsMostSignificantFirst() {
        XCTAssertEqual(Hex.encode(0x0123_4567_89ab_cdef as UInt64), "0123456789abcdef")
        XCTAssertEqual(Hex.encode(1 as UInt64), "0000000000000001")
        XCTAssertEqual(Hex.encode(UInt64.max), "ffffffffffffffff")
    }
}

import Hashing
import XCTest
@testable import PulldownApp

/// Who may steer the demo: the token rule, without a server.
final class DemoAccessTests: XCTestCase {
    func testOnLoopbackNoTokenIsNeededAndBeyondItOneAlwaysIs() {
        for host in ["127.0.0.1", "::1", "localhost"] {
            XCTAssertNil(DemoAccess(host: host, configured: "configured-token").presenterToken, host)
        }
        XCTAssertEqual(DemoAccess(host: "0.0.0.0", configured: "configured-token").presenterToken, "configured-token")
        let random = [DemoAccess(host: "0.0.0.0", configured: nil), DemoAccess(host: "192.168.1.2", configured: nil)]
            .map { $0.presenterToken ?? "" }
        XCTAssertTrue(random.allSatisfy { $0.count == 32 && DemoAccess.isUsableToken($0) }, "\(random)")
        XCTAssertNotEqual(random[0], random[1])
    }

    func testTheBearerSchemeIsReadInAnyCase() {
        XCTAssertEqual(DemoAccess.bearer("Bearer abc").map { String(decoding: $0, as: UTF8.self) }, "abc")
        XCTAssertEqual(DemoAccess.bearer("bearer  abc").map { String(decoding: $0, as: UTF8.self) }, "abc")
        XCTAssertEqual(DemoAccess.bearer("BEARER abc").map { String(decoding: $0, as: UTF8.self) }, "abc")
        XCTAssertNil(DemoAccess.bearer("Basic abc"))
        XCTAssertNil(DemoAccess.bearer("Bearer"))
        XCTAssertNil(DemoAccess.bearer(nil))
    }

    func testTheComparisonIsExact() {
        let token = Array("0123456789abcdef".utf8)
        XCTAssertTrue(ConstantTime.equal(token, token))
        XCTAssertFalse(ConstantTime.equal(Array("0123456789abcdeF".utf8), token))
        XCTAssertFalse(ConstantTime.equal(Array("0123456789abcde".utf8), token))
        XCTAssertFalse(ConstantTime.equal(Array("0123456789abcdef0".utf8), token))
        XCTAssertFalse(ConstantTime.equal([], token))
    }

    func testAUsableTokenFitsAHeaderAndAFragment() {
        XCTAssertTrue(DemoAccess.isUsableToken("abc-DEF_1.2~3+4/5"))
        for bad in ["short", String(repeating: "a", count: 201), "has space", "has=equals", "has#hash", "ünïcode1"] {
            XCTAssertFalse(DemoAccess.isUsableToken(bad), bad)
        }
    }
}

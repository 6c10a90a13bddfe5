import XCTest
@testable import PulldownHTTP

final class ProtocolSnifferStateTests: XCTestCase {
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        start + .milliseconds(Int(seconds * 1000))
    }

    private func route(_ action: ProtocolSnifferState<String>.Action) -> (Int32, String, ProtocolSnifferState<String>.Route)? {
        if case let .handOver(socket, peer, route) = action { return (socket, peer, route) }
        return nil
    }

    func testAClientHelloGoesToTLSAndARequestLineToCleartext() {
        var state = ProtocolSnifferState<String>(timeout: .seconds(15))
        state.added(socket: 7, peer: "a", now: at(0))
        state.added(socket: 8, peer: "b", now: at(0))
        let tls = route(state.read(socket: 7, firstByte: 22))
        XCTAssertEqual(tls?.0, 7)
        XCTAssertEqual(tls?.1, "a")
        XCTAssertEqual(tls?.2, .tls)
        XCTAssertEqual(route(state.read(socket: 8, firstByte: UInt8(ascii: "G")))?.2, .cleartext)
        XCTAssertEqual(state.waitingCount, 0)
        XCTAssertNil(state.nextDeadline)
    }

    func testEveryOtherFirstByteIsCleartextSoTheHTTPDaemonRefusesIt() {
        for byte: UInt8 in [0, 0x15, 0x17, 0x80, UInt8(ascii: "P"), 0xff] {
            XCTAssertEqual(ProtocolSnifferState<Int>.route(firstByte: byte), .cleartext, "\(byte)")
        }
    }

    func testAClientThatLeavesBeforeSayingAnythingIsClosed() {
        var state = ProtocolSnifferState<String>(timeout: .seconds(15))
        state.added(socket: 7, peer: "a", now: at(0))
        guard case .close(socket: 7) = state.read(socket: 7, firstByte: nil) else { return XCTFail("not closed") }
        guard case .none = state.read(socket: 7, firstByte: 22) else { return XCTFail("a socket is decided once") }
    }

    func testASilentClientIsClosedWhenItsTimeRunsOutAndNotBefore() {
        var state = ProtocolSnifferState<String>(timeout: .seconds(15))
        XCTAssertTrue(state.added(socket: 7, peer: "a", now: at(0)), "the first deadline: the driver must wait for it")
        XCTAssertFalse(state.added(socket: 8, peer: "b", now: at(5)), "a later one: the wait stands")
        XCTAssertEqual(state.nextDeadline, at(15))
        XCTAssertEqual(state.expired(now: at(14.9)), [])
        XCTAssertEqual(state.expired(now: at(15)), [7])
        XCTAssertEqual(state.nextDeadline, at(20))
        _ = state.read(socket: 8, firstByte: 22)
        XCTAssertNil(state.nextDeadline, "a socket handed over has no deadline left")
        XCTAssertEqual(state.expired(now: at(100)), [])
        XCTAssertTrue(state.added(socket: 9, peer: "c", now: at(100)), "none was left: the driver waits without one")
    }

    func testASocketNumberUsedAgainKeepsOnlyItsNewDeadline() {
        var state = ProtocolSnifferState<String>(timeout: .seconds(15))
        state.added(socket: 7, peer: "first", now: at(0))
        _ = state.read(socket: 7, firstByte: 22)
        state.added(socket: 7, peer: "second", now: at(10))
        XCTAssertEqual(state.expired(now: at(15)), [], "the first arrival's deadline is not the second's")
        XCTAssertEqual(state.nextDeadline, at(25))
        XCTAssertEqual(state.expired(now: at(25)), [7])
    }

    func testWithoutATimeoutNothingExpiresAndAStopClosesEveryoneWaiting() {
        var state = ProtocolSnifferState<String>(timeout: nil)
        state.added(socket: 7, peer: "a", now: at(0))
        state.added(socket: 9, peer: "b", now: at(0))
        XCTAssertNil(state.nextDeadline)
        XCTAssertEqual(state.expired(now: at(1_000_000)), [])
        XCTAssertEqual(Set(state.stop()), [7, 9])
        XCTAssertEqual(state.waitingCount, 0)
    }
}

import Foundation
import XCTest
@testable import PulldownHTTP
import PulldownTesting

/// The whole-request deadline on a clock moved by hand: exact, however slow this machine is.
final class ReadDeadlinesTests: XCTestCase {
    /// A connected pair of sockets: the sweeper watches `server`, the test reads `client`.
    private struct Pair {
        let server: Int32
        let client: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
            (server, client) = (ends[0], ends[1])
            var patience = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        }

        /// Blocks until the server end is shut down (0) or 10 s pass (-1).
        func readUntilShutDown() -> Int {
            var byte: UInt8 = 0
            return recv(client, &byte, 1, 0)
        }

        /// Whether the server end is still open, without waiting.
        var isOpen: Bool {
            var byte: UInt8 = 0
            return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && errno == EAGAIN
        }

        func close() {
            Glibc.close(server)
            Glibc.close(client)
        }
    }

    func testOnlyAConnectionStillReadingPastTheLimitIsShutDown() throws {
        let clock = ManualServerClock()
        let deadlines = ReadDeadlines(limit: 10, clock: clock)
        let (early, late, served) = (try Pair(), try Pair(), try Pair())
        defer { [early, late, served].forEach { $0.close() } }
        _ = deadlines.watch(fd: early.server)
        deadlines.watch(fd: served.server).readingSince.store(0, ordering: .relaxed)   // its request is being answered
        deadlines.start()
        defer { deadlines.stop() }

        clock.advance(by: .seconds(6))
        _ = deadlines.watch(fd: late.server)
        clock.advance(by: .seconds(6))

        XCTAssertEqual(early.readUntilShutDown(), 0, "12 s reading against a limit of 10: shut down")
        // That sweep read the clock at 12 s, and the clock moves no more: no later sweep decides otherwise.
        XCTAssertTrue(late.isOpen, "6 s reading: within the limit")
        XCTAssertTrue(served.isOpen, "not reading: no deadline")
    }
}

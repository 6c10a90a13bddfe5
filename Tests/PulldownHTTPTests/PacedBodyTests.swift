import Foundation
import XCTest
@testable import PulldownHTTP

/// Paced answers through a real server: the same bytes and length, later, and no thread held.
final class PacedBodyTests: XCTestCase {
    private func server(threads: Int = 2, pacing: Pacing) throws -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = threads
        configuration.accessLog = false
        let body = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        return try HTTPServer(configuration: configuration) { request, responder in
            guard request.path == "/paced" else { return responder.send(.text("fast")) }
            var response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/octet-stream")]), body: body)
            response.headers.add("ETag", "\"x\"")
            responder.send(PacedBody.response(response, to: request, pacing: pacing))
        }
    }

    func testAPacedBodyKeepsItsBytesAndLengthAndArrivesNoSoonerThanItsBandwidthAllows() throws {
        let server = try server(pacing: Pacing(bytesPerSecond: 100_000))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let started = ContinuousClock.now
        try client.send("GET /paced HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), "20000")
        XCTAssertNil(response.header("Transfer-Encoding"))
        XCTAssertEqual(response.header("ETag"), "\"x\"")
        XCTAssertEqual(response.body, (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(200), "20,000 bytes at 100,000 a second")
        // The connection stays usable after it.
        try client.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "fast")
    }

    func testHeadIsNotPacedAndStatesTheLength() throws {
        let server = try server(pacing: Pacing(bytesPerSecond: 1_000))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("HEAD /paced HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse(forHead: true)
        XCTAssertEqual(response.header("Content-Length"), "20000")
        try client.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "fast")
    }

    func testAPacedBodyHoldsNoThreadAndItsClientMayLeaveMidway() throws {
        // One server thread, and a body that takes twenty seconds: a held thread would keep
        // the second client waiting past its five-second timeout.
        let server = try server(threads: 1, pacing: Pacing(bytesPerSecond: 1_000))
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("GET /paced HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try slow.read(through: "\r\n\r\n").contains("Content-Length: 20000"))
        let other = try RawClient(port: server.port)
        try other.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try other.readResponse().text, "fast")
        close(slow.fd)
        try other.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try other.readResponse().text, "fast")
    }
}

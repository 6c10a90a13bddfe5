import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import PulldownHTTP

final class HTTPServerTests: XCTestCase {
    private func configuration(grace: Duration = .milliseconds(600)) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.stopGracePeriod = grace
        return configuration
    }

    func testPortZeroGetsARealPortAndAnswers() throws {
        let server = try HTTPServer(configuration: configuration()) { request, responder in
            responder.send(.text("hello \(request.path) \(request.query.first("q") ?? "-")"))
        }
        defer { server.stop() }
        XCTAssertNotEqual(server.port, 0)
        let client = try RawClient(port: server.port)
        try client.send("GET /greet?q=a+b HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "hello /greet a b")
        XCTAssertNotNil(response.header("Date"))
        XCTAssertEqual(response.header("Content-Length"), "\(response.body.count)")
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
    }

    func testHandlerMayAnswerLaterFromAnotherThread() throws {
        let answeringThread = Mutex<Bool?>(nil)
        let server = try HTTPServer(configuration: configuration()) { request, responder in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) {
                answeringThread.withLock { $0 = !Thread.isMainThread }
                responder.send(.text("late \(request.method)"))
            }
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let started = ContinuousClock.now
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "late GET")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(280))
        XCTAssertEqual(answeringThread.withLock { $0 }, true)

        // The connection stays usable after a suspended answer.
        try client.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "late GET")
    }

    func testSuspendedRequestsDoNotHoldTheServerThreads() throws {
        var config = configuration()
        config.threads = 1
        let server = try HTTPServer(configuration: config) { request, responder in
            if request.path == "/slow" {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(800)) { responder.send(.text("slow")) }
            } else {
                responder.send(.text("fast"))
            }
        }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.05)
        let fast = try RawClient(port: server.port)
        let started = ContinuousClock.now
        try fast.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try fast.readResponse().text, "fast")
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(500), "one thread, yet the fast request did not wait")
        XCTAssertEqual(try slow.readResponse().text, "slow")
    }

    func testOnlyTheFirstSendCounts() throws {
        let server = try HTTPServer(configuration: configuration()) { _, responder in
            responder.send(.text("first"))
            responder.send(.text("second", status: 500))
            DispatchQueue.global().async { responder.send(.text("third", status: 500)) }
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "first")
        XCTAssertEqual(try client.readResponse().text, "first")
    }

    func testRequestBodyReachesTheHandler() throws {
        let server = try HTTPServer(configuration: configuration()) { request, responder in
            responder.send(.text("\(request.method) \(request.body.count) \(request.headers["content-type"] ?? "-")"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = String(repeating: "x", count: 5000)
        try client.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n" + body)
        XCTAssertEqual(try client.readResponse().text, "POST 5000 text/plain")
    }

    func testBodyOverTheLimitGets413() throws {
        var config = configuration()
        config.maxBodySize = 100
        let server = try HTTPServer(configuration: config) { request, responder in
            responder.send(.text("got \(request.body.count)"))
        }
        defer { server.stop() }
        let declared = try RawClient(port: server.port)
        try declared.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n" + String(repeating: "x", count: 101))
        XCTAssertEqual(try declared.readResponse().status, 413)

        let chunked = try RawClient(port: server.port)
        try chunked.send("POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n" + String(repeating: "y", count: 100)
                         + "\r\n1\r\nz\r\n0\r\n\r\n")
        XCTAssertEqual(try chunked.readResponse().status, 413)

        let exact = try RawClient(port: server.port)
        try exact.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + String(repeating: "x", count: 100))
        XCTAssertEqual(try exact.readResponse().text, "got 100")
    }

    func testMalformedTargetGets400WithoutReachingTheHandler() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: configuration()) { _, responder in
            calls.add(1, ordering: .relaxed)
            responder.send(.text("handled"))
        }
        defer { server.stop() }
        for target in ["/%zz", "/index.html%00.js", "/a?b=%FF", "http://x/../../etc/passwd"] {
            let client = try RawClient(port: server.port)
            try client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 400, target)
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json", target)
        }
        XCTAssertEqual(calls.load(ordering: .relaxed), 0)
    }

    func testStopWhileARequestIsSuspendedReturnsPromptlyAndAnswers503() throws {
        let waiting = DispatchSemaphore(value: 0)
        let kept = Mutex<[Responder]>([])
        let server = try HTTPServer(configuration: configuration()) { _, responder in
            kept.withLock { $0.append(responder) }   // never answered by the handler
            waiting.signal()
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(waiting.wait(timeout: .now() + 5), .success)
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(server.requestsInFlight, 1)

        let started = ContinuousClock.now
        server.stop()
        let took = ContinuousClock.now - started
        XCTAssertLessThan(took, .milliseconds(1000), "stop took \(took)")

        let response = try client.readResponse()
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Retry-After"), "1")
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")

        // A late answer after the stop is dropped, not a crash.
        kept.withLock { $0.first?.send(.text("too late")) }
        server.stop()   // a second stop is harmless
    }

    func testRequestSuspendedAfterStopAnsweredTheWaitingOnesGets503InsteadOfAnAbort() throws {
        let kept = Mutex<[Responder]>([])
        let server = try HTTPServer(configuration: configuration(grace: .milliseconds(100))) { request, responder in
            if request.path == "/healthz" {
                responder.send(.text("ok"))
            } else {
                kept.withLock { $0.append(responder) }   // never answered by the handler
            }
        }
        let waiting = try RawClient(port: server.port)
        try waiting.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        let idle = try RawClient(port: server.port)
        try idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 200)
        // A body still arriving keeps a request in flight, so stop lingers after the grace period.
        let slowBody = try RawClient(port: server.port)
        try slowBody.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nx")
        Thread.sleep(forTimeInterval: 0.05)

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        Thread.sleep(forTimeInterval: 0.16)   // past the grace period: the waiting request got its 503
        try idle.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(stopped.wait(timeout: .now() + 5), .success, "stop returned")
        XCTAssertEqual(try waiting.readResponse().status, 503)
        if let late = try? idle.readResponse() {
            XCTAssertEqual(late.status, 503)
        }
    }

    func testStopWaitsForARequestThatFinishesWithinTheGracePeriod() throws {
        let waiting = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: configuration(grace: .milliseconds(800))) { _, responder in
            waiting.signal()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { responder.send(.text("finished")) }
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /soon HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(waiting.wait(timeout: .now() + 5), .success)
        server.stop()
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "finished")
    }

    func testStopClosesTheListeningSocket() throws {
        let server = try HTTPServer(configuration: configuration()) { _, responder in responder.send(.text("x")) }
        let port = server.port
        server.stop()
        XCTAssertThrowsError(try RawClient(port: port), "nothing listens after stop")
    }

    func testPortInUseIsAStartErrorNamingIt() throws {
        let first = try HTTPServer(configuration: configuration()) { _, responder in responder.send(.text("x")) }
        defer { first.stop() }
        var config = configuration()
        config.port = first.port
        XCTAssertThrowsError(try HTTPServer(configuration: config) { _, responder in responder.send(.text("x")) }) { error in
            XCTAssertTrue("\(error)".contains("already in use"), "\(error)")
        }
    }
}

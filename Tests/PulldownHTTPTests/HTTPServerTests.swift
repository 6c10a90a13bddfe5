import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import PulldownHTTP
import PulldownTesting

final class HTTPServerTests: XCTestCase {
    private func configuration(grace: Duration = .milliseconds(600), clock: any ServerClock = SystemServerClock()) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.stopGracePeriod = grace
        configuration.clock = clock
        // The read deadlines run on the same clock; off here, so that the stop is a manual
        // clock's first reader and these tests can wait on that.
        if clock is ManualServerClock { configuration.connectionTimeout = 0 }
        return configuration
    }

    /// Stops `server` on a thread of its own; the semaphore is signalled when `stop()` returned.
    private func stopInBackground(_ server: HTTPServer) -> DispatchSemaphore {
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        return stopped
    }

    /// Waits (a bounded while) until `condition` holds. Only for the count of requests in flight,
    /// which libmicrohttpd moves on its own threads with no event a test can wait on (a request
    /// whose body is still arriving has reached no handler yet); it polls a state, and assumes no
    /// time.
    private func waitUntil(_ what: String, _ condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("timed out waiting until \(what)") }
            Thread.sleep(forTimeInterval: 0.001)
        }
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

    func testARequestKnowsItsPeerAddressAndItsTargetAsSent() throws {
        let server = try HTTPServer(configuration: configuration()) { request, responder in
            responder.send(.text("\(request.peer.map(String.init(describing:)) ?? "none") \(request.target.raw)"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /a%20b?q=1&r HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "127.0.0.1 /a%20b?q=1&r")
    }

    func testHandlerMayAnswerLaterFromAnotherThread() throws {
        let kept = Mutex<Responder?>(nil)
        let called = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: configuration()) { _, responder in
            kept.withLock { $0 = responder }   // returns without answering
            called.signal()
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(called.wait(timeout: .now() + 10), .success)
        let responder = try XCTUnwrap(kept.withLock { $0 })
        Thread.detachNewThread { responder.send(.text("late")) }
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "late")

        // The connection stays usable after a suspended answer.
        try client.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(called.wait(timeout: .now() + 10), .success)
        try XCTUnwrap(kept.withLock { $0 }).send(.text("again"))
        XCTAssertEqual(try client.readResponse().text, "again")
    }

    func testSuspendedRequestsDoNotHoldTheServerThreads() throws {
        var config = configuration()
        config.threads = 1
        let slowResponder = Mutex<Responder?>(nil)
        let slowArrived = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: config) { request, responder in
            if request.path == "/slow" {
                slowResponder.withLock { $0 = responder }   // answered only when the test says so
                slowArrived.signal()
            } else {
                responder.send(.text("fast"))
            }
        }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(slowArrived.wait(timeout: .now() + 10), .success)
        // One thread, and the slow request has no answer yet: the fast one is served anyway.
        let fast = try RawClient(port: server.port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try fast.readResponse().text, "fast")
        try XCTUnwrap(slowResponder.withLock { $0 }).send(.text("slow"))
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

    func testStopAnswersASuspendedRequest503OnceTheGracePeriodHasPassed() throws {
        let clock = ManualServerClock()
        let waiting = DispatchSemaphore(value: 0)
        let kept = Mutex<[Responder]>([])
        let server = try HTTPServer(configuration: configuration(clock: clock)) { _, responder in
            kept.withLock { $0.append(responder) }   // never answered by the handler
            waiting.signal()
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(waiting.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(server.requestsInFlight, 1)

        let stopped = stopInBackground(server)
        XCTAssertTrue(clock.waitForFirstRead(timeout: .now() + 10), "the stop began")
        clock.advance(by: .milliseconds(600))   // the grace period passes, on the server's clock

        let response = try client.readResponse()
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Retry-After"), "1")
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "stop returned once nothing was in flight")

        // A late answer after the stop is dropped, not a crash.
        kept.withLock { $0.first?.send(.text("too late")) }
        server.stop()   // a second stop is harmless
    }

    func testRequestSuspendedAfterStopAnsweredTheWaitingOnesGets503InsteadOfAnAbort() throws {
        let clock = ManualServerClock()
        let kept = Mutex<[Responder]>([])
        let server = try HTTPServer(configuration: configuration(grace: .milliseconds(100), clock: clock)) { request, responder in
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
        // The answer can reach the client a moment before the server counts its request done.
        waitUntil("only the waiting request is in flight") { kept.withLock { $0.count } == 1 && server.requestsInFlight == 1 }
        // A body still arriving keeps a request in flight, so the stop stays in its flush phase
        // until the server's clock passes it.
        let slowBody = try RawClient(port: server.port)
        try slowBody.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nx")
        waitUntil("the slow body is in flight too") { server.requestsInFlight == 2 }

        let stopped = stopInBackground(server)
        XCTAssertTrue(clock.waitForFirstRead(timeout: .now() + 10), "the stop began")
        clock.advance(by: .milliseconds(100))
        XCTAssertEqual(try waiting.readResponse().status, 503, "the waiting request is answered after the grace period")
        guard case .flushing = server.core.stopPhase else { return XCTFail("not flushing: \(server.core.stopPhase)") }

        // A new request on a kept-alive connection would suspend now; it is answered 503 instead.
        try idle.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 503)
        clock.advance(by: StopState(gracePeriod: .zero).flushPeriod)
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "stop returned after the flush period")
    }

    func testStopWaitsForARequestThatFinishesWithinTheGracePeriod() throws {
        let clock = ManualServerClock()
        let waiting = DispatchSemaphore(value: 0)
        let kept = Mutex<Responder?>(nil)
        let server = try HTTPServer(configuration: configuration(grace: .milliseconds(800), clock: clock)) { _, responder in
            kept.withLock { $0 = responder }
            waiting.signal()
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /soon HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(waiting.wait(timeout: .now() + 10), .success)
        let stopped = stopInBackground(server)
        XCTAssertTrue(clock.waitForFirstRead(timeout: .now() + 10), "the stop began")
        // The server's clock stands still: the answer comes within the grace period, however
        // long this machine takes to get here.
        try XCTUnwrap(kept.withLock { $0 }).send(.text("finished"))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "finished")
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
    }

    func testAServerLetGoWithoutStopStopsItsThreads() throws {
        var port: UInt16 = 0
        do {
            let server = try HTTPServer(configuration: configuration()) { _, responder in responder.send(.text("x")) }
            port = server.port
            let client = try RawClient(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().text, "x")
        }
        XCTAssertThrowsError(try RawClient(port: port), "nothing listens once the server is gone")
    }

    /// The streams a /stream route opened, for the test to write to.
    private final class OpenedStreams: Sendable {
        let streams = Mutex<[ResponseStream]>([])
        let arrived = DispatchSemaphore(value: 0)
        var first: ResponseStream? { streams.withLock { $0.first } }
    }

    /// A server whose /stream route opens a stream and hands it to the test.
    private func streamingServer(clock: any ServerClock = SystemServerClock()) throws -> (HTTPServer, OpenedStreams) {
        let opened = OpenedStreams()
        let server = try HTTPServer(configuration: configuration(clock: clock)) { request, responder in
            if request.path == "/stream" {
                let stream = ResponseStream()
                stream.write(Array("first\n".utf8))
                opened.streams.withLock { $0.append(stream) }
                responder.send(.stream(stream, headers: HTTPHeaders([("Content-Type", "text/event-stream")])))
                opened.arrived.signal()
            } else {
                responder.send(.text("plain"))
            }
        }
        return (server, opened)
    }

    func testAStreamSendsWhatIsWrittenWhenItIsWrittenAndEndsWhenClosed() throws {
        let (server, opened) = try streamingServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(opened.arrived.wait(timeout: .now() + 10), .success)
        let head = try client.read(through: "first\n")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        XCTAssertTrue(head.contains("Transfer-Encoding: chunked"), head)
        XCTAssertTrue(head.contains("Content-Type: text/event-stream"), head)
        let stream = try XCTUnwrap(opened.first)
        // Written from another thread while the connection waits suspended.
        Thread.detachNewThread { stream.write(Array("second\n".utf8)) }
        XCTAssertTrue(try client.read(through: "second\n").hasSuffix("second\n"))
        stream.close()
        XCTAssertTrue(try client.read(through: "0\r\n\r\n").hasSuffix("0\r\n\r\n"), "the last chunk ends the body")
        // The connection is kept alive and serves the next request.
        try client.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain")
    }

    func testHeadOfAStreamSendsNoBodyNoFalseLengthAndEndsTheStream() throws {
        let (server, opened) = try streamingServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(opened.arrived.wait(timeout: .now() + 10), .success)
        let head = try client.readResponse(forHead: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream")
        // The GET's length is unknown, so none is stated; without chunked coding the end of the
        // (empty) answer is the end of the connection, and not one byte follows the head.
        XCTAssertNil(head.header("Content-Length"))
        XCTAssertNil(head.header("Transfer-Encoding"))
        XCTAssertEqual(head.header("Connection"), "close")
        XCTAssertTrue(client.isClosedByServer(), "nothing after the head, and the connection closed")
        let stream = try XCTUnwrap(opened.first)
        let ended = DispatchSemaphore(value: 0)
        stream.onEnd { ended.signal() }
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "the stream's owner heard it ended")
        XCTAssertTrue(stream.isClosed)
    }

    func testAClientThatLeftIsNoticedAtTheNextWriteAndEndsTheStream() throws {
        let (server, opened) = try streamingServer()
        defer { server.stop() }
        do {
            let client = try RawClient(port: server.port)
            try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(opened.arrived.wait(timeout: .now() + 10), .success)
            _ = try client.read(through: "first\n")
        }   // the client closes its socket here
        let stream = try XCTUnwrap(opened.first)
        let ended = DispatchSemaphore(value: 0)
        stream.onEnd { ended.signal() }
        // A suspended connection is not watched: the next writes find the socket gone.
        let writer = Thread {
            while ended.wait(timeout: .now() + .milliseconds(50)) == .timedOut { stream.write(Array("ping\n".utf8)) }
            ended.signal()
        }
        writer.start()
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "the stream ended once the client was gone")
    }

    func testStopClosesOpenStreamsAtOnceWithoutWaitingForTheGracePeriod() throws {
        let clock = ManualServerClock()
        let (server, opened) = try streamingServer(clock: clock)
        let client = try RawClient(port: server.port)
        try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(opened.arrived.wait(timeout: .now() + 10), .success)
        _ = try client.read(through: "first\n")
        // The server's clock never moves: the stop can only finish if it ends the stream itself.
        let stopped = stopInBackground(server)
        XCTAssertTrue(try client.read(through: "0\r\n\r\n").hasSuffix("0\r\n\r\n"), "the stream was ended cleanly")
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
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

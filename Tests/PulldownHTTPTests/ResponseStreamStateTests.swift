import XCTest
@testable import PulldownHTTP

/// A streamed body without a server: writes, reads into small buffers, suspensions, the end.
final class ResponseStreamStateTests: XCTestCase {
    /// Reads once into a buffer of `size` bytes; the text read, or what the reader said instead.
    private func read(_ state: inout ResponseStreamState, size: Int = 64) -> String {
        var buffer = [UInt8](repeating: 0, count: size)
        let result = buffer.withUnsafeMutableBytes { state.read(into: $0) }
        switch result {
        case .wrote(let count): return String(decoding: buffer[0..<count], as: UTF8.self)
        case .end: return "<end>"
        case .suspend: return "<suspend>"
        }
    }

    func testWrittenChunksAreReadInOrderAcrossSmallBuffers() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        XCTAssertEqual(state.write(Array("retry: 1000\n\n".utf8)), .none)
        XCTAssertEqual(state.write(Array("data: x\n\n".utf8)), .none)
        XCTAssertEqual(read(&state, size: 5), "retry")
        XCTAssertEqual(read(&state, size: 100), ": 1000\n\ndata: x\n\n")
        XCTAssertEqual(state.pendingBytes, 0)
    }

    func testNothingToReadSuspendsAndTheNextWriteResumes() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        XCTAssertEqual(read(&state), "<suspend>")
        XCTAssertEqual(state.suspended(), .none)
        XCTAssertEqual(state.suspension.phase, .suspended)
        XCTAssertEqual(state.write(Array("a".utf8)), .resume)
        XCTAssertEqual(state.write(Array("b".utf8)), .none, "one resume is enough")
        XCTAssertEqual(read(&state), "ab")
    }

    func testAWriteWhileSuspendingResumesAsSoonAsTheSuspensionIsDone() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        XCTAssertEqual(read(&state), "<suspend>")
        XCTAssertEqual(state.write(Array("a".utf8)), .none, "not suspended yet: nothing to resume")
        XCTAssertEqual(state.suspended(), .resume)
        XCTAssertEqual(read(&state), "a")
    }

    func testCloseEndsTheBodyAfterWhatWasWritten() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        _ = state.write(Array("last".utf8))
        XCTAssertEqual(state.close(), .none)
        XCTAssertEqual(state.write(Array("dropped".utf8)), .none)
        XCTAssertEqual(read(&state), "last")
        XCTAssertEqual(read(&state), "<end>")
    }

    func testClosingASuspendedStreamResumesItToEnd() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        _ = read(&state)
        _ = state.suspended()
        XCTAssertEqual(state.close(), .resume)
        XCTAssertEqual(read(&state), "<end>")
    }

    func testAReaderTooFarBehindIsClosedAtAChunkBoundary() {
        var state = ResponseStreamState(maxPendingBytes: 10)
        XCTAssertEqual(state.write(Array("12345".utf8)), .none)
        XCTAssertEqual(state.write(Array("67890".utf8)), .none)
        XCTAssertEqual(state.write(Array("x".utf8)), .none)
        XCTAssertTrue(state.overflowed)
        XCTAssertTrue(state.isClosed)
        XCTAssertEqual(read(&state), "<end>", "what was pending is dropped whole, never half an event")
    }

    func testAppendedChunksWaitForWake() {
        var state = ResponseStreamState(maxPendingBytes: 1024)
        _ = read(&state)
        _ = state.suspended()
        state.append(Array("a".utf8))
        XCTAssertEqual(state.suspension.phase, .suspended, "appending does not resume")
        XCTAssertEqual(state.wake(), .resume)
        XCTAssertEqual(state.wake(), .none, "already resuming")
        XCTAssertEqual(read(&state), "a")
        _ = read(&state)
        _ = state.suspended()
        XCTAssertEqual(state.wake(), .none, "nothing to send: stays suspended")
    }
}

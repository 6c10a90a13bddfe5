import XCTest
@testable import PulldownClient

/// The text/event-stream framing, as WHATWG HTML reads it: chunks cut anywhere give the same events.
final class EventStreamParserTests: XCTestCase {
    private func read(_ chunks: [String], into parser: inout EventStreamParser) -> [EventStreamParser.Output] {
        chunks.flatMap { parser.consume(Array($0.utf8)) }
    }

    private func read(_ chunks: String...) -> [EventStreamParser.Output] {
        var parser = EventStreamParser()
        return read(chunks, into: &parser)
    }

    private func event(_ name: String, _ data: String, id: String = "") -> EventStreamParser.Output {
        .event(ServerSentEvent(name: name, data: data, lastEventID: id))
    }

    func testTheServersFramingRetryThenAnEventWithItsId() {
        XCTAssertEqual(read("retry: 1000\n\nevent: items\nid: 21\ndata: {\"gap\":false}\n\n"),
                       [.retry(milliseconds: 1000), event("items", "{\"gap\":false}", id: "21")])
    }

    func testAnEventCutAnywhereIsTheSameEvent() {
        let stream = "event: items\r\nid: 7\r\ndata: {\"a\":1}\r\n\r\n"
        let whole = read(stream)
        for cut in 1..<stream.utf8.count {
            let bytes = Array(stream.utf8)
            var parser = EventStreamParser()
            let parts = parser.consume(bytes[..<cut]) + parser.consume(bytes[cut...])
            XCTAssertEqual(parts, whole, "cut at \(cut)")
        }
        XCTAssertEqual(whole, [event("items", "{\"a\":1}", id: "7")])
    }

    func testLinesEndInCRLFOrLFOrCRAlone() {
        XCTAssertEqual(read("data: a\rdata: b\n\r\n"), [event("message", "a\nb")])
        XCTAssertEqual(read("data: a\r", "\ndata: b\r", "\r"), [event("message", "a\nb")], "a CRLF split across chunks is one line end")
    }

    func testCommentsAndUnknownFieldsAreIgnoredAndAFieldWithoutAColonIsANameAlone() {
        XCTAssertEqual(read(": ping\n\n"), [])
        XCTAssertEqual(read("colour: red\ndata\n\n"), [event("message", "")], "`data` alone is an empty data line")
    }

    func testOnlyOneSpaceAfterTheColonIsDropped() {
        XCTAssertEqual(read("data:x\n\ndata:  y\n\n"), [event("message", "x"), event("message", " y")])
    }

    func testAnEventWithoutDataIsNotDispatchedButItsIdIsKept() {
        var parser = EventStreamParser()
        XCTAssertEqual(read(["event: items\nid: 5\n\n"], into: &parser), [])
        XCTAssertEqual(parser.lastEventID, "5")
        XCTAssertEqual(read(["event: demo\ndata: {}\n\n"], into: &parser), [event("demo", "{}", id: "5")],
                       "an event without an id leaves the last one as it was")
    }

    func testAnIdHoldingNULIsIgnored() {
        var parser = EventStreamParser()
        _ = read(["id: 3\ndata: a\n\nid: 4\u{0}\ndata: b\n\n"], into: &parser)
        XCTAssertEqual(parser.lastEventID, "3")
    }

    func testRetryTakesDigitsOnly() {
        XCTAssertEqual(read("retry: 250\n", "retry: 1x\nretry:\n"), [.retry(milliseconds: 250)])
    }

    func testALeadingByteOrderMarkIsSkippedOnceOnly() {
        XCTAssertEqual(read("\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n"), [event("message", "a")],
                       "a second mark starts a field name that is no field")
    }

    func testADropMidEventLosesThatEventAndItsIdNotTheOnesBefore() {
        var parser = EventStreamParser()
        _ = read(["id: 8\ndata: whole\n\nid: 9\ndata: half"], into: &parser)
        parser.reconnected()
        XCTAssertEqual(parser.lastEventID, "8", "the cut event's id was never dispatched")
        XCTAssertEqual(read(["data: next\n\n"], into: &parser), [event("message", "next", id: "8")])
    }
}

/// One event of a `text/event-stream`, as WHATWG HTML's "server-sent events" dispatches it.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field; `message` when the event had none.
    let name: String
    /// The `data` lines, joined by newlines.
    let data: String
    /// The stream's last event id when this event was dispatched: its own `id`, or the last one
    /// before it (an event without an id leaves it as it was).
    let lastEventID: String
}

/// The text/event-stream framing as a pure parser: bytes in, in chunks cut anywhere, and out the
/// events and `retry` times they complete. No I/O, no clock.
///
/// WHATWG HTML §9.2.6: lines end in CRLF, LF or CR (a CR at the end of one chunk and an LF at the
/// start of the next are one line end); a leading byte order mark is skipped; `:` starts a
/// comment; an empty line dispatches the event, if it has data. The last event id persists across
/// events, and across connections when the same parser reads them (``reconnected()``).
struct EventStreamParser: Sendable {
    /// What a line completed.
    enum Output: Sendable, Hashable {
        case event(ServerSentEvent)
        /// A `retry` field: reconnect after this many milliseconds.
        case retry(milliseconds: Int)
    }

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var name = ""
    private var data = ""
    private var hasData = false
    /// The `id` of the event being read, or the last one's: it becomes the last event id when
    /// an event is dispatched, so an event cut off by a drop does not move it.
    private var idBuffer = ""
    /// The last event id: what a reconnection sends as `Last-Event-ID` (empty: none).
    private(set) var lastEventID = ""

    /// A new connection starts: a half line or half event of the old one is dropped; the last
    /// event id stays.
    mutating func reconnected() {
        idBuffer = lastEventID
        line = []
        afterCR = false
        atStart = true
        name = ""
        data = ""
        hasData = false
    }

    /// The next bytes of the stream: what they complete, in order.
    mutating func consume(_ bytes: some Sequence<UInt8>) -> [Output] {
        var out: [Output] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue } // the LF of a CRLF
            }
            switch byte {
            case 0x0D:
                afterCR = true
                lineEnded(&out)
            case 0x0A:
                lineEnded(&out)
            default:
                line.append(byte)
            }
        }
        return out
    }

    private mutating func lineEnded(_ out: inout [Output]) {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch(&out) }
        if bytes.first == UInt8(ascii: ":") { return } // a comment (the server's `: ping`)
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: bytes[..<(colon ?? bytes.endIndex)], as: UTF8.self)
        var value = colon.map { bytes[bytes.index(after: $0)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch field {
        case "event":
            name = text
        case "data":
            data += hasData ? "\n" + text : text
            hasData = true
        case "id" where !value.contains(0):
            idBuffer = text
        case "retry" where !value.isEmpty && value.allSatisfy { (0x30...0x39).contains($0) }:
            if let milliseconds = Int(text) { out.append(.retry(milliseconds: milliseconds)) }
        default:
            break // an unknown field is ignored
        }
    }

    private mutating func dispatch(_ out: inout [Output]) {
        defer {
            name = ""
            data = ""
            hasData = false
        }
        lastEventID = idBuffer
        guard hasData else { return }
        out.append(.event(ServerSentEvent(name: name.isEmpty ? "message" : name, data: data, lastEventID: lastEventID)))
    }
}

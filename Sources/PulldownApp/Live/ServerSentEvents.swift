/// The text/event-stream framing (WHATWG HTML, "Server-sent events"): fields are `name: value`
/// lines, an empty line ends an event, and a line starting with `:` is a comment.
enum ServerSentEvents {
    /// How long a browser's EventSource waits before reconnecting after the stream ends.
    static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// A comment: ignored by EventSource, but it keeps proxies from closing an idle stream.
    static func comment(_ text: String) -> [UInt8] {
        Array(": \(text)\n\n".utf8)
    }

    /// One event. `id` becomes the stream's last event id, which EventSource sends back as
    /// `Last-Event-ID` when it reconnects; an event without one leaves it as it was (the demo
    /// knobs' events, which are no position in the feed). `data` must be one line (JSON written
    /// by JSONWriter is).
    static func event(_ name: String, id: Int64?, data: [UInt8]) -> [UInt8] {
        var bytes = Array("event: \(name)\n\(id.map { "id: \($0)\n" } ?? "")data: ".utf8)
        bytes.reserveCapacity(bytes.count + data.count + 2)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")])
        return bytes
    }
}

import PulldownDoctor
import PulldownHTTP

/// What the doctor reads back from a page or a refresh the API wrote, without parsing it:
/// `ResponseJSON` writes the items first and `hasMore`, `gap` and `feed` last, so the newest
/// item's id is at the start and the flags are in the last bytes (tested against ResponseJSON).
enum AnswerReading {
    /// The answer's `Retry-After`, and for a 200 page or refresh what its body says.
    static func answer(_ response: HTTPResponse, isList: Bool) -> ObservedRequest.Answer {
        var answer = ObservedRequest.Answer(retryAfter: response.headers["Retry-After"].flatMap { Int($0) })
        guard isList, response.status == 200 else { return answer }
        let body = response.body
        answer.newestID = newestID(in: body)
        let tail = body.suffix(112)
        answer.hasMore = flag("\"hasMore\":", in: tail)
        answer.gap = flag("\"gap\":", in: tail)
        answer.feed = value(after: "\"feed\":\"", in: tail).flatMap { UInt64(String(decoding: $0.prefix(16), as: UTF8.self), radix: 16) }
        answer.nextBefore = response.headers["Link"].flatMap(nextBefore)
        return answer
    }

    /// The first item's id: `{"items":[{"id":42,…`; nil for `{"items":[]…`.
    static func newestID(in body: [UInt8]) -> Int64? {
        let prefix = Array(#"{"items":[{"id":"#.utf8)
        guard body.starts(with: prefix) else { return nil }
        return digits(body[prefix.count...])
    }

    /// The `before=` of a `Link: </api/items?…&before=41&…>; rel="next"`.
    static func nextBefore(_ link: String) -> Int64? {
        value(after: "before=", in: Array(link.utf8)[...]).flatMap(digits)
    }

    private static func flag(_ key: String, in bytes: ArraySlice<UInt8>) -> Bool? {
        guard let rest = value(after: key, in: bytes) else { return nil }
        if rest.starts(with: "true".utf8) { return true }
        if rest.starts(with: "false".utf8) { return false }
        return nil
    }

    /// What follows the last `key` in `bytes`.
    private static func value(after key: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let key = Array(key.utf8)
        guard bytes.count >= key.count else { return nil }
        var start = bytes.endIndex - key.count
        while start >= bytes.startIndex {
            if bytes[start..<(start + key.count)].elementsEqual(key) { return bytes[(start + key.count)...] }
            start -= 1
        }
        return nil
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let number = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return DecimalDigits.parse(String(decoding: number, as: UTF8.self))
    }
}

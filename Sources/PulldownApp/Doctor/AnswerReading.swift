import PulldownDoctor
import PulldownHTTP

/// What the doctor reads back from a page or a refresh the API wrote, without parsing it:
/// `ResponseJSON` writes the items first and the page's own members last, in a fixed order
/// (a page ends `"hasMore":true,"feed":"…"}`, a refresh `"gap":false,"lastUpdated":"…","feed":"…"}`),
/// so the newest item's id is at the start and the flags at known places from the end (tested
/// against ResponseJSON). A few byte comparisons for every answer the doctor takes.
enum AnswerReading {
    /// The answer's `Retry-After`, and for a 200 page or refresh what its body says.
    static func answer(_ response: HTTPResponse, isList: Bool) -> ObservedRequest.Answer {
        var answer = ObservedRequest.Answer(retryAfter: response.headers["Retry-After"].flatMap { Int($0) })
        guard isList, response.status == 200 else { return answer }
        response.body.withUnsafeBufferPointer { body in
            answer.newestID = newestID(in: body)
            guard let (feed, before) = feed(endingAt: body) else { return }
            answer.feed = feed
            answer.hasMore = flag(endingAt: before, Self.hasMore)
            // A refresh: its gap comes before its lastUpdated, `,"lastUpdated":"` and 20 characters and `"`.
            if answer.hasMore == nil, before.count > Self.lastUpdated {
                answer.gap = flag(endingAt: UnsafeBufferPointer(rebasing: before.dropLast(Self.lastUpdated)), Self.gap)
            }
        }
        answer.nextBefore = response.headers["Link"].flatMap(nextBefore)
        return answer
    }

    /// The first item's id: `{"items":[{"id":42,…`; nil for `{"items":[]…`.
    static func newestID(in body: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard body.starts(with: Self.firstItem) else { return nil }
        return digits(body[Self.firstItem.count...])
    }

    private static let firstItem = Array(#"{"items":[{"id":"#.utf8)
    private static let feedMember = Array(#","feed":""#.utf8)
    private static let hasMore = (Array(#","hasMore":true"#.utf8), Array(#","hasMore":false"#.utf8))
    private static let gap = (Array(#","gap":true"#.utf8), Array(#","gap":false"#.utf8))
    private static let lastUpdated = #","lastUpdated":""#.utf8.count + 21
    private static let before = Array("before=".utf8)

    /// The `before=` of a `Link: <http://…/api/items?…&before=41&…>; rel="next"`.
    static func nextBefore(_ link: String) -> Int64? {
        var link = link
        return link.withUTF8 { bytes in
            let key = Self.before
            guard bytes.count > key.count else { return nil }
            for start in 0...(bytes.count - key.count) where bytes[start] == key[0] {
                if bytes[start..<(start + key.count)].elementsEqual(key) { return digits(bytes[(start + key.count)...]) }
            }
            return nil
        }
    }

    /// The feed of `…,"feed":"0123456789abcdef"}`, and the bytes before `,"feed":"`.
    private static func feed(endingAt body: UnsafeBufferPointer<UInt8>) -> (UInt64, UnsafeBufferPointer<UInt8>)? {
        let key = Self.feedMember, tail = key.count + 16 + 2
        guard body.count >= tail, body[body.count - 2] == UInt8(ascii: "\""), body[body.count - 1] == UInt8(ascii: "}"),
              body[(body.count - tail)...].starts(with: key) else { return nil }
        var feed: UInt64 = 0
        for byte in body[(body.count - 18)..<(body.count - 2)] {
            guard let nibble = Self.nibble(byte) else { return nil }
            feed = feed << 4 | UInt64(nibble)
        }
        return (feed, UnsafeBufferPointer(rebasing: body[..<(body.count - tail)]))
    }

    /// Which of `member`'s two forms (`,"name":true`, `,"name":false`) `bytes` end with.
    private static func flag(endingAt bytes: UnsafeBufferPointer<UInt8>, _ member: ([UInt8], [UInt8])) -> Bool? {
        let ends = { (form: [UInt8]) in bytes.count >= form.count && bytes[(bytes.count - form.count)...].elementsEqual(form) }
        return ends(member.0) ? true : ends(member.1) ? false : nil
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The decimal number `bytes` start with (at most 18 digits: an Int64 item id).
    private static func digits(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var value: Int64 = 0, count = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < 18 else { break }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            count += 1
        }
        return count > 0 ? value : nil
    }
}

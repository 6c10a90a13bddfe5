import Glibc
import PulldownDoctor
import PulldownHTTP

/// What the doctor reads back from a page or a refresh the API wrote, without parsing it:
/// `ResponseJSON` writes the items first and the page's own members last, in a fixed order
/// (a page ends `"hasMore":true,"next":41,"feed":"…","changes":57}`, a refresh
/// `"gap":false,"lastUpdated":"…","feed":"…","changes":57,"changed":[…]}`), so the newest item's
/// id is at the start and the flags at known places before the feed (tested against
/// ResponseJSON). A few byte comparisons for every answer the doctor takes.
enum AnswerReading {
    /// The answer's `Retry-After`, and for a 200 page or refresh what its body says.
    static func answer(_ response: HTTPResponse, isList: Bool) -> ObservedRequest.Answer {
        var answer = ObservedRequest.Answer(retryAfter: response.headers["Retry-After"].flatMap { Int($0) })
        guard isList, response.status == 200 else { return answer }
        response.body.withUnsafeBufferPointer { body in
            answer.newestID = newestID(in: body)
            guard let (feed, before, after) = feed(in: body) else { return }
            answer.feed = feed
            (answer.changes, answer.listedChanges) = changes(startingAt: after)
            answer.hasMore = flag(endingAt: withoutNext(before), Self.hasMore)
            // Only a page with more to come can be short.
            if answer.hasMore == true { answer.items = itemCount(in: before, first: answer.newestID) }
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
    private static let nextItem = Array(#"},{"id":"#.utf8)

    /// How many items a page holds: the first (when `first` was read), and one for each
    /// `},{"id":` after it, found from the `}`s `memchr` finds (one an object). Inside a string
    /// that text would have its quotes escaped; an item's own fields could hold it as an array of
    /// objects whose first key is `id`, and then more are counted than there are: a short page
    /// can go unseen, never a full one be taken for short.
    static func itemCount(in body: UnsafeBufferPointer<UInt8>, first: Int64?) -> Int {
        guard first != nil, var at = body.baseAddress else { return 0 }
        let end = at + body.count, key = Self.nextItem
        var count = 1
        while at < end, let found = memchr(at, Int32(key[0]), end - at) {
            let brace = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if end - brace >= key.count, UnsafeBufferPointer(start: brace, count: key.count).elementsEqual(key) { count += 1 }
            at = brace + 1
        }
        return count
    }

    private static let feedMember = Array(#","feed":""#.utf8)
    private static let changesMember = Array(#"","changes":"#.utf8)
    private static let nextMember = Array(#","next":"#.utf8)
    private static let null = Array("null".utf8)
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

    /// The feed of `…,"feed":"0123456789abcdef","changes":…`, the answer's own member (the last
    /// such one: an item's own fields come before it), the bytes before `,"feed":"`, and those
    /// from the digits of `changes` on.
    private static func feed(in body: UnsafeBufferPointer<UInt8>)
        -> (UInt64, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)? {
        let key = Self.feedMember, after = Self.changesMember
        var start = body.count - key.count - 16 - after.count
        while start >= 0 {
            defer { start -= 1 }
            guard body[start] == key[0], body[start..<(start + key.count)].elementsEqual(key),
                  body[(start + key.count + 16)...].starts(with: after),
                  endsTheAnswer(UnsafeBufferPointer(rebasing: body[(start + key.count + 16 + after.count)...])) else { continue }
            var feed: UInt64 = 0
            for byte in body[(start + key.count)..<(start + key.count + 16)] {
                guard let nibble = Self.nibble(byte) else { return nil }
                feed = feed << 4 | UInt64(nibble)
            }
            return (feed, UnsafeBufferPointer(rebasing: body[..<start]),
                    UnsafeBufferPointer(rebasing: body[(start + key.count + 16 + after.count)...]))
        }
        return nil
    }

    /// `57}` (a page) or `57,"changed":[…]}` (a refresh): the sequence, and for a refresh whether
    /// it listed any change.
    private static func changes(startingAt bytes: UnsafeBufferPointer<UInt8>) -> (Int64?, Bool?) {
        guard let sequence = digits(bytes[...]) else { return (nil, nil) }
        let rest = bytes[digitCount(bytes)...]
        guard rest.starts(with: Self.changedMember) else { return (sequence, nil) }
        return (sequence, !rest.elementsEqual(Self.noneChanged))
    }

    /// Whether `bytes`, from the digits of a `"changes":` on, end the answer as only its own
    /// member does: `57}` at the body's end, or `57,"changed":[`. An item's own fields may hold
    /// the same names; they end otherwise.
    private static func endsTheAnswer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = digitCount(bytes)
        guard count > 0 else { return false }
        let rest = bytes[count...]
        return rest.elementsEqual(Self.pageEnd) || rest.starts(with: Self.changedMember)
    }

    private static func digitCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
    }

    private static let pageEnd = Array("}".utf8)
    private static let changedMember = Array(#","changed":["#.utf8)
    private static let noneChanged = Array(#","changed":[]}"#.utf8)

    /// A page's bytes before its `"feed"` less `,"next":41` (or `null`) at their end.
    private static func withoutNext(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        // The value: `null`, or the digits of a cursor.
        var end = bytes.count
        if bytes.count >= Self.null.count, bytes[(bytes.count - Self.null.count)...].elementsEqual(Self.null) {
            end -= Self.null.count
        } else {
            while end > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end - 1]) { end -= 1 }
        }
        guard end >= Self.nextMember.count, bytes[(end - Self.nextMember.count)..<end].elementsEqual(Self.nextMember) else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[..<(end - Self.nextMember.count)])
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

import Foundation

/// One finished exchange as the doctor sees it: what a client asked and what it was answered, as
/// plain values read by the API layer (`DoctorHook`), with the times an injected clock gave.
public struct ObservedRequest: Sendable {
    /// Where a page starts: the newest items, or a keyset cursor.
    public enum Cursor: Hashable, Sendable {
        case newest
        case before(Int64)
        case after(Int64)
    }

    /// What was asked, as far as the rules care.
    public enum Ask: Hashable, Sendable {
        /// `GET /api/items`, with the limit the answer had (the server's page size when none was sent).
        case page(Cursor, limit: Int)
        /// `GET /api/items/{id}`.
        case item(Int64)
        /// `POST /api/refresh`, from `after`, with the edits and deletions since `changes` (nil:
        /// none sent).
        case refresh(after: Int64?, changes: Int64? = nil)
        /// `GET /api/events`, its cursors as sent: the `Last-Event-ID` header and `after=`.
        case stream(lastEventID: Int64?, after: Int64?)
        /// Anything else (any HEAD, a session, a post, a malformed query): kept in the timeline,
        /// left alone by the rules.
        case other
    }

    /// What the answer said that the rules read.
    public struct Answer: Sendable, Equatable {
        /// `Retry-After`, in seconds, when it was sent as a number.
        public var retryAfter: Int?
        /// A page's `hasMore`.
        public var hasMore: Bool?
        /// A refresh's `gap`.
        public var gap: Bool?
        /// The newest (first) item id of a page or a refresh; nil when it held none, or is no list.
        public var newestID: Int64?
        /// The `before=` of the next older page, as a page's `Link` (rel="next") names it.
        public var nextBefore: Int64?
        /// The feed the answer named (`feed`), its 16 hex digits as a number.
        public var feed: UInt64?
        /// The point of the feed's sequence (inserts, edits, deletions) the answer reflects (`changes`).
        public var changes: Int64?
        /// A refresh's `changed` held at least one edit or deletion.
        public var listedChanges: Bool?
        /// How many items a page holds, read for a page with `hasMore: true` only (where fewer
        /// than its limit is a short page); nil otherwise.
        public var items: Int?

        public init(retryAfter: Int? = nil, hasMore: Bool? = nil, gap: Bool? = nil, newestID: Int64? = nil,
                    nextBefore: Int64? = nil, feed: UInt64? = nil, changes: Int64? = nil, listedChanges: Bool? = nil,
                    items: Int? = nil) {
            self.retryAfter = retryAfter
            self.hasMore = hasMore
            self.gap = gap
            self.newestID = newestID
            self.nextBefore = nextBefore
            self.feed = feed
            self.changes = changes
            self.listedChanges = listedChanges
            self.items = items
        }
    }

    /// The longest target kept, in bytes: the timeline is bounded by what one entry can hold.
    static let maxTargetBytes = 160

    public var method: String
    /// The path and query as sent, cut at `maxTargetBytes` (with `…`).
    public var target: String
    public var ask: Ask
    /// The request carried `If-None-Match`.
    public var sentValidator: Bool
    public var status: Int
    public var answer: Answer
    /// When the API began to answer, and when it had answered.
    public var started: Date
    public var ended: Date

    public init(method: String, target: String, ask: Ask, sentValidator: Bool = false, status: Int,
                answer: Answer = Answer(), started: Date, ended: Date) {
        self.method = method
        self.target = Self.cut(target)
        self.ask = ask
        self.sentValidator = sentValidator
        self.status = status
        self.answer = answer
        self.started = started
        self.ended = ended
    }

    /// The answer was a success (2xx, or 304).
    public var succeeded: Bool { (200..<300).contains(status) || status == 304 }

    /// The page's cursor and limit, for a page.
    public var page: (cursor: Cursor, limit: Int)? {
        if case .page(let cursor, let limit) = ask { return (cursor, limit) }
        return nil
    }

    /// The `before=` of a page, for a page asked by it.
    public var before: Int64? {
        if case .page(.before(let id), _) = ask { return id }
        return nil
    }

    /// The path without the query.
    public var path: Substring {
        target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
    }

    private static func cut(_ target: String) -> String {
        guard target.utf8.count > maxTargetBytes else { return target }
        var end = target.utf8.index(target.utf8.startIndex, offsetBy: maxTargetBytes - 3)
        // Back to the start of a character: a cut never leaves half of one.
        while UTF8.isContinuation(target.utf8[end]) { end = target.utf8.index(before: end) }
        return String(target[..<end]) + "…"
    }
}

extension ObservedRequest {
    /// Whether `a` and `b` came at once: the later-started one began while the earlier one was in
    /// flight, or within `seconds` of its answer.
    static func atOnce(_ a: ObservedRequest, _ b: ObservedRequest, within seconds: TimeInterval = 1) -> Bool {
        let (first, second) = a.started <= b.started ? (a, b) : (b, a)
        return second.started <= first.ended.addingTimeInterval(seconds)
    }
}

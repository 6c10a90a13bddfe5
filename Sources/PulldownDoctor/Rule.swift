/// One mistake a client can make, as a small state machine over its requests.
///
/// A rule sees every finished request of one client, in the order they finished, with what the
/// client held before it (`ClientFacts`), and says whether that request is the mistake. It keeps
/// what it needs in its own fields, O(1) of them: the doctor keeps one of each rule per client.
/// A new rule is a type of its own (a file in Rules/), a line in `Rules.all` and a field and a
/// call in `Examination`.
public protocol Rule: Sendable {
    /// Its name in findings, the docs and the log (`duplicate-request`).
    static var name: String { get }
    /// The mistake in one line.
    static var title: String { get }
    /// What to do instead, in one paragraph.
    static var advice: String { get }

    init()

    /// Looks at `request`, which `facts` held nothing of yet.
    mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict
}

/// A rule's answer about one request.
public enum Verdict: Sendable {
    case fine
    /// The request is the mistake; `because` is the earlier request or answer that makes it one.
    case mistake(because: ObservedRequest?)
}

/// Every rule, the most specific first: a request that makes several mistakes is reported as the
/// first of them (a retry too soon is a duplicate too, and is said as the retry).
public enum Rules {
    public static let all: [any Rule.Type] = [
        RetryTooSoon.self,
        PastTheEnd.self,
        IgnoredGap.self,
        StaleAfterChange.self,
        ShortPageStop.self,
        RefetchAllPages.self,
        FirstPageOnLoadMore.self,
        DuplicateRequest.self,
        ReconnectWithoutLastEventID.self,
        StreamWithoutCursor.self,
        PollWithoutValidator.self,
    ]

    /// The rule named `name`.
    public static func named(_ name: String) -> (any Rule.Type)? {
        all.first { $0.name == name }
    }
}

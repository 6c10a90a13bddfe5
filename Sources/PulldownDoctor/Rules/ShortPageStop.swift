/// `short-page-stop`: a step of the walk held fewer items than its limit while `hasMore` was true
/// (deleted items leave their places out; the demo's `shortPages`), and the client took it for
/// the end: it went back to the top (a refresh, the newest page, `after=` its newest item) without ever
/// asking the page the short one's `Link` named. Lists that end when `items.length < limit`.
///
/// No timer says "stopped": the client's next request that moves its list does. The page the
/// `Link` named (or one further down) means it went on; going back to the top first means it had
/// stopped. A page of items it holds, read again, says neither.
struct ShortPageStop: Rule {
    public static let name = "short-page-stop"
    public static let title = "Stopped at a short page while hasMore was true"
    public static let advice = "A page may hold fewer items than its limit, even none, while hasMore is true: deleted "
        + "items leave their places out. Only hasMore: false ends the list; whatever a page's length, go on from its "
        + "next (the Link's rel=\"next\") when the reader nears the end. (README: A feed that changes.)"

    /// The latest step of the walk, when it was short with more to come, and the `before=` its
    /// `Link` named.
    private var short: (page: ObservedRequest, next: Int64)?

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        var verdict = Verdict.fine
        if let short {
            switch request.ask {
            case .page(.before(let before), _) where before <= short.next:
                self.short = nil    // went on
            case .page(.newest, _), .refresh:
                verdict = .mistake(because: short.page)
                self.short = nil
            case .page(.after(let after), _) where after >= facts.newestHeld ?? 0:
                verdict = .mistake(because: short.page)     // what is newer than its top: a refresh
                self.short = nil
            case .page, .item, .stream, .other:
                break               // items it holds, read again; or no move of the list
            }
        }
        if request.status == 200, facts.isWalkStep(request), let page = request.page, request.answer.hasMore == true,
           let items = request.answer.items, items < page.limit, let next = request.answer.nextBefore {
            short = (request, next)
        }
        return verdict
    }
}

/// `refetch-all-pages`: after a refresh, pages the client already held asked for again, page by
/// page: the refresh of an infinite list that refetches every page it has (TanStack Query's
/// default, TanStack/query#875; SWR's revalidateAll, swr#1401). Each page asked again is one.
struct RefetchAllPages: Rule {
    public static let name = "refetch-all-pages"
    public static let title = "Refetched the pages it held after a refresh"
    public static let advice = "A refresh only needs what is newer than the newest item held: ask GET /api/items?after=NEWEST "
        + "(or POST /api/refresh with {\"after\": NEWEST}) and put the answer on top; the older pages have not "
        + "changed and keep their place. Refetching every page costs a request per page and moves the reader's list."

    /// The refresh after which the walk has not gone deeper yet.
    private var refresh: ObservedRequest?

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        var verdict = Verdict.fine
        // A page it held, asked with its walk's page size: a windowed list that reads back items
        // it let go asks for them with a size of its own.
        if let refresh, facts.holdsPage(request), request.page?.limit == facts.walkLimit {
            verdict = .mistake(because: refresh)
        } else if facts.isLoadMore(request) {
            refresh = nil
        }
        switch request.ask {
        case .page(.newest, _) where request.succeeded && facts.walkedTo != nil,
             .refresh where request.status == 200 && request.answer.gap != true && facts.walkedTo != nil:
            refresh = request
        default:
            break
        }
        return verdict
    }
}

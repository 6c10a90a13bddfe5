/// `first-page-on-load-more`: loading the next page, the client asked for the newest page again at
/// the same time (SWR's useSWRInfinite revalidates the first page on every load more, swr#1401).
struct FirstPageOnLoadMore: Rule {
    public static let name = "first-page-on-load-more"
    public static let title = "Asked for the newest page again with each load more"
    public static let advice = "Loading more needs only the next page, before= the oldest item held. Asking for the "
        + "newest page too doubles the requests at the bottom of the list and can put new items among old ones; "
        + "leave the newest items to a refresh (in SWR: revalidateFirstPage: false)."

    /// The last page request, when it was the newest page asked again (true) or a load more
    /// (false), not yet paired: SWR asks the two one after the other, nothing between them.
    private var last: (request: ObservedRequest, isNewest: Bool)?

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard request.page != nil else { return .fine }
        let earlier = last
        let isNewest = facts.isNewestAgain(request)
        last = isNewest || facts.isLoadMore(request) ? (request, isNewest) : nil
        guard let last, let earlier, earlier.isNewest != last.isNewest, ObservedRequest.atOnce(earlier.request, request) else {
            return .fine
        }
        self.last = nil
        return .mistake(because: earlier.request)
    }
}

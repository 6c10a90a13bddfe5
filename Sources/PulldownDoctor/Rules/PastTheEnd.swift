/// `past-the-end`: asking for older items after an answer said `hasMore: false`, and being answered
/// an empty page. Lists that fetch "the next page" whenever the end of the list is in view, without
/// checking whether there is one, ask again and again at the bottom.
struct PastTheEnd: Rule {
    public static let name = "past-the-end"
    public static let title = "Asked for older items after hasMore: false"
    public static let advice = "When a page answers hasMore: false, the end is reached: stop asking for older pages "
        + "(show \"No more items\") until a refresh or a reset gives the list a new end. Only the Link header's "
        + "rel=\"next\", present while hasMore is true, names a next page."

    /// The answer that said there is nothing older.
    private var end: ObservedRequest?

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard let page = request.page, request.status == 200, request.answer.hasMore == false else { return .fine }
        if case .after = page.cursor { return .fine }
        // Only a page asked past the end is empty: a page of items the client let go and reads
        // again (a windowed list) never is.
        if let end, request.before != nil, request.answer.newestID == nil { return .mistake(because: end) }
        end = request
        return .fine
    }
}

/// `ignored-gap`: a refresh answered `gap: true` (more items are new than it returned), and the
/// client went on as if its list were whole: it asked for what is newer than the new top, or went
/// on below its old items, without reading into the hole or starting over.
struct IgnoredGap: Rule {
    public static let name = "ignored-gap"
    public static let title = "Went on after gap: true as if nothing was missed"
    public static let advice = "gap: true means more items are new than the answer holds: between its last item and "
        + "what the client had, some are missing. Either start over from the answer's items (drop the old ones and "
        + "load older pages from the answer's last item) or fill the hole with before= pages from there; never "
        + "keep the old list under the new items and refresh after= the new top."

    /// A gap not yet dealt with: the refresh's `after`, the newest id it returned, and the answer.
    private var open: (after: Int64, top: Int64?, answer: ObservedRequest)?

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        var verdict = Verdict.fine
        if let gap = open {
            switch request.ask {
            case .page(.newest, _):
                open = nil   // started over
            case .page(.before(let id), _):
                // Older than the refresh's `after`: the old list goes on below the hole.
                if id <= gap.after + 1 { verdict = .mistake(because: gap.answer) }
                open = nil
            case .page(.after(let id), _), .refresh(after: .some(let id), _):
                // At or above the new top: past the hole as if it were not there.
                if let top = gap.top, id >= top { verdict = .mistake(because: gap.answer) }
                open = nil
            case .refresh(after: nil, _):
                // From the session's last seen id, which the gap's answer moved to its top.
                verdict = .mistake(because: gap.answer)
                open = nil
            case .item, .stream, .other:
                break
            }
        }
        if case .refresh(let after, _) = request.ask, request.status == 200, request.answer.gap == true {
            // Without `after`, the server went on from the session's last seen id: what it held.
            open = (after ?? facts.newestHeld ?? 0, request.answer.newestID, request)
        }
        return verdict
    }
}

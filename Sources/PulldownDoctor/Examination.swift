/// One client under the doctor's eye: what it holds and every rule's state, fed its requests one
/// by one. A pure state machine: a request in, at most one mistake out.
///
/// The rules are fields, called one by one in `Rules.all`'s order: a call each, with no
/// existential in between, for every request the server answers.
struct Examination: Sendable {
    public private(set) var facts = ClientFacts()
    private var retryTooSoon = RetryTooSoon()
    private var pastTheEnd = PastTheEnd()
    private var ignoredGap = IgnoredGap()
    private var staleAfterChange = StaleAfterChange()
    private var shortPageStop = ShortPageStop()
    private var refetchAllPages = RefetchAllPages()
    private var firstPageOnLoadMore = FirstPageOnLoadMore()
    private var duplicateRequest = DuplicateRequest()
    private var reconnectWithoutLastEventID = ReconnectWithoutLastEventID()
    private var streamWithoutCursor = StreamWithoutCursor()
    private var pollWithoutValidator = PollWithoutValidator()

    public init() {}

    /// What `request` shows: the first rule (in `Rules.all`'s order) that calls it a mistake, and
    /// why; nil when none does. Every rule sees every request, so each keeps its state whichever
    /// one spoke.
    public mutating func examine(_ request: ObservedRequest) -> (rule: any Rule.Type, because: ObservedRequest?)? {
        if facts.isAnotherFeed(request) {
            // Another feed (a reset, another store): what the client held names nothing there.
            self = Examination()
        }
        let facts = self.facts
        var found: (rule: any Rule.Type, because: ObservedRequest?)?
        func take<R: Rule>(_ rule: inout R) {
            if case .mistake(let because) = rule.examine(request, knowing: facts), found == nil { found = (R.self, because) }
        }
        take(&retryTooSoon)
        take(&pastTheEnd)
        take(&ignoredGap)
        take(&staleAfterChange)
        take(&shortPageStop)
        take(&refetchAllPages)
        take(&firstPageOnLoadMore)
        take(&duplicateRequest)
        take(&reconnectWithoutLastEventID)
        take(&streamWithoutCursor)
        take(&pollWithoutValidator)
        self.facts.take(request)
        return found
    }
}

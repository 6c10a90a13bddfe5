/// What a client holds, as far as its requests show, in the feed its answers came from: the
/// rules read it as it was before each request, and it moves on after every rule has looked.
public struct ClientFacts: Sendable {
    /// The feed its answers named; a new one makes everything here (and every rule's state) start over.
    public private(set) var feed: UInt64?
    /// It was given the newest page, or a refresh.
    private(set) var holdsNewest = false
    /// The newest item id it was given.
    private(set) var newestHeld: Int64?
    /// Where its walk towards older items goes on: the `before=` of the next page (as the last
    /// page's `Link` named it), 0 once it reached the end; nil before it walked at all.
    private(set) var walkedTo: Int64?
    /// The page size it walks with.
    private(set) var walkLimit: Int?
    /// The newest point of the feed's sequence a page or a refresh it was given reflected
    /// (`changes`): what it holds is at least that new.
    private(set) var changesHeld: Int64?
    /// The last answer that gave it items (a page or a refresh).
    private(set) var itemsFrom: ObservedRequest?
    /// The last event stream it opened (answered 200).
    private(set) var lastStream: ObservedRequest?
    /// The last newest page it was given whole (200, with its tag).
    private(set) var newestWithTag: ObservedRequest?

    public init() {}

    /// Whether `request`'s answer names a feed other than the one this client was in.
    func isAnotherFeed(_ request: ObservedRequest) -> Bool {
        guard let named = request.answer.feed, let feed else { return false }
        return named != feed
    }

    /// A walk's next step: a page from where the walk got to, or further (any `before=`, first).
    func isLoadMore(_ request: ObservedRequest) -> Bool {
        guard let before = request.before else { return false }
        return walkedTo.map { before <= $0 } ?? true
    }

    /// A step of its walk: the newest page that starts one, or a load more.
    func isWalkStep(_ request: ObservedRequest) -> Bool {
        request.page?.cursor == .newest ? walkedTo == nil : isLoadMore(request)
    }

    /// A page of items it holds already: between where its walk got to and the newest it holds.
    func holdsPage(_ request: ObservedRequest) -> Bool {
        guard let before = request.before, let walkedTo, let newestHeld else { return false }
        return before > walkedTo && before <= newestHeld + 1
    }

    /// The newest page asked again, by a client that holds it already.
    func isNewestAgain(_ request: ObservedRequest) -> Bool {
        holdsNewest && request.page?.cursor == .newest
    }

    /// Moves on past `request`.
    mutating func take(_ request: ObservedRequest) {
        let answer = request.answer
        if let named = answer.feed { feed = named }
        if request.status == 200, let changes = answer.changes { changesHeld = max(changesHeld ?? changes, changes) }
        if request.status == 200, let newest = answer.newestID {
            itemsFrom = request
            switch request.ask {
            case .page(.newest, _), .page(.after, _), .refresh: newestHeld = max(newestHeld ?? newest, newest)
            default: break
            }
        }
        switch request.ask {
        case .page(.newest, let limit) where request.succeeded:
            holdsNewest = true
            guard request.status == 200 else { break }
            newestWithTag = request
            if walkedTo == nil { walk(to: answer, limit: limit) }
        case .page(.before, let limit) where request.status == 200 && isLoadMore(request):
            walk(to: answer, limit: limit)
        case .refresh where request.status == 200:
            holdsNewest = true
            // Items missing under the answer's: a client that does right walks on from them, so
            // its walk starts there.
            if answer.gap == true { walkedTo = nil }
        case .stream where request.status == 200:
            lastStream = request
        default:
            break
        }
    }

    private mutating func walk(to answer: ObservedRequest.Answer, limit: Int) {
        walkedTo = answer.hasMore == false ? 0 : answer.nextBefore ?? walkedTo
        walkLimit = limit
    }
}

/// One client under the doctor's eye: what it holds and every rule's state, fed its requests one
/// by one. A pure state machine: a request in, at most one mistake out.
public struct Examination: Sendable {
    public private(set) var facts = ClientFacts()
    private var rules: [any Rule]

    public init() {
        rules = Rules.all.map { $0.init() }
    }

    /// What `request` shows: the first rule (in `Rules.all`'s order) that calls it a mistake, and
    /// why; nil when none does. Every rule sees every request, so each keeps its state whichever
    /// one spoke.
    public mutating func examine(_ request: ObservedRequest) -> (rule: any Rule.Type, because: ObservedRequest?)? {
        if facts.isAnotherFeed(request) {
            // Another feed (a reset, another store): what the client held names nothing there.
            self = Examination()
        }
        var found: (rule: any Rule.Type, because: ObservedRequest?)?
        for index in rules.indices {
            if case .mistake(let because) = rules[index].examine(request, knowing: facts), found == nil {
                found = (type(of: rules[index]), because)
            }
        }
        facts.take(request)
        return found
    }
}

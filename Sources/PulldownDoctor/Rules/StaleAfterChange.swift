/// `stale-after-change`: items the client holds were edited or deleted, and it refreshed without
/// asking for the changes: the answer's new items go on top, and the rows it holds stay as they
/// were, deleted ones included.
///
/// Seen from the answer: the refresh sent no `changes`, its `changed` came back empty, and the
/// feed's sequence (`changes`) moved past both what the client held and the newest item the
/// answer brings, so numbers above what it holds went to edits or deletions it was not told of.
/// (Inserts take numbers too, but those the answer brings end at its newest item.) A client that
/// listens to the event stream is told of changes there, as `updated` and `deleted` events, and
/// is left alone.
public struct StaleAfterChange: Rule {
    public static let name = "stale-after-change"
    public static let title = "Refreshed without asking for edits and deletions"
    public static let advice = "Items change: send the \"changes\" of the last page or refresh you hold with each refresh "
        + "({\"after\": NEWEST, \"changes\": 57}) and apply the answer's \"changed\" (replace an updated item, drop a "
        + "deleted one), or follow GET /api/changes?since=57, or listen to the event stream's updated and deleted events."

    public init() {}

    public mutating func examine(_ request: ObservedRequest, knowing facts: ClientFacts) -> Verdict {
        guard case .refresh(_, changes: nil) = request.ask, request.status == 200, facts.lastStream == nil,
              let held = facts.changesHeld, let now = request.answer.changes,
              request.answer.listedChanges == false, request.answer.gap != true else { return .fine }
        let accounted = max(held, request.answer.newestID ?? 0)
        return now > accounted ? .mistake(because: facts.itemsFrom) : .fine
    }
}

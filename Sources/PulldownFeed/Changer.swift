import Foundation
import Synchronization

/// One edit or deletion waiting to be committed.
struct ChangeRequest: Sendable {
    let id: Int64
    let change: ItemChange
}

/// The rules of editing and deleting, applied to a batch of changes in one transaction.
///
/// Holds what a change needs rather than the `Feed`, so the group commit that owns it holds no
/// reference back to the feed.
final class Changer: Sendable {
    let store: any FeedStore
    let clock: any FeedClock
    let inserts: InsertReports
    /// `FeedConfiguration.changesKept`.
    let kept: Int
    /// Changes logged by this process since its last pruning of the log.
    private let sincePruned = Mutex(0)

    init(store: any FeedStore, clock: any FeedClock, inserts: InsertReports, kept: Int) {
        self.store = store
        self.clock = clock
        self.inserts = inserts
        self.kept = kept
    }

    /// How many changes go between two prunings: often enough that the log holds at most this
    /// many more than `kept`, rarely enough that the pruning's walk past `kept` entries costs
    /// little per change.
    var pruneEvery: Int { min(64, max(1, kept / 16)) }

    /// Commits `requests` in one transaction, each applied in order as if alone; each gets its
    /// own outcome (a refused one changes nothing). If the transaction fails, nothing changes
    /// and every one fails.
    func commit(_ requests: [ChangeRequest]) throws -> [Result<ChangeOutcome, any Error>] {
        let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        let outcomes = try store.write { store in
            // Every change reads the item and writes it back: no other process may change it in
            // between, and its number is taken under this lock like an id.
            try store.lockForInserts()
            let outcomes = requests.map { request in Result { try apply(request, at: now, in: store) } }
            let logged = outcomes.count { if case .success(.changed) = $0 { true } else { false } }
            if logged > 0, sincePruned.withLock({ $0 += logged; return $0 >= pruneEvery }) {
                if let cutoff = try store.pruneChanges(keeping: kept) {
                    try store.setMeta(MetaKey.changesFloor, double: Double(max(cutoff, try store.changesFloor())))
                }
                sincePruned.withLock { $0 = 0 }
            }
            return outcomes
        }
        let changes = outcomes.compactMap { outcome -> Change? in
            if case .success(.changed(let change)) = outcome { change } else { nil }
        }
        if let through = changes.map(\.sequence).max() { inserts.changed(ids: changes.map(\.itemID), through: through) }
        return outcomes
    }

    /// One change inside the open write transaction, at `now` (Unix seconds). Everything that
    /// can refuse it runs before anything is written.
    private func apply(_ request: ChangeRequest, at now: Int64, in store: any FeedStoreWriting) throws -> ChangeOutcome {
        guard let place = try store.place(request.id) else { throw FeedError.noSuchItem(request.id) }
        guard let item = place.item else { throw FeedError.deleted(request.id) }
        switch request.change {
        case .edit(let edit):
            guard let fields = try edit(item) else { return .unchanged(item) }
            let valid = try Validation.check(fields)
            let draft = ItemDraft(title: valid.title, body: valid.body, author: valid.author, createdAt: 0, userFields: valid.userFields)
            guard draft != ItemDraft(title: item.title, body: item.body, author: item.author, createdAt: 0,
                                     userFields: item.userFields) else { return .unchanged(item) }
            let number = try store.logChange(of: item.id)
            try store.updateItem(item.id, draft, version: item.version + 1, editedAt: now)
            // An edit may draw a picture from a server no item drew from before: the page's
            // content policy must allow it, as for an insert.
            let origins = PictureOrigins.of(userFields: draft.userFields)
            if !origins.isEmpty { try store.addPictureOrigins(Set(origins)) }
            let edited = Item(id: item.id, title: draft.title, body: draft.body, author: draft.author, createdAt: item.createdAt,
                              userFields: draft.userFields, version: item.version + 1,
                              editedAt: Date(timeIntervalSince1970: Double(now)))
            return .changed(Change(sequence: number, kind: .updated(edited)))
        case .delete(let check):
            try check(item)
            let number = try store.logChange(of: item.id)
            try store.deleteItem(item.id)
            return .changed(Change(sequence: number, kind: .deleted(item.id)))
        }
    }
}

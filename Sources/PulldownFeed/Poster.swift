import Foundation

/// The rules of adding items, applied to a batch of posts in one transaction.
///
/// Holds what a post needs rather than the `Feed`, so the group commit that owns it holds no
/// reference back to the feed.
struct Poster: Sendable {
    let store: any FeedStore
    let clock: any FeedClock
    let inserts: InsertReports

    /// Inserts `posts` (already validated) in one transaction, in order; returns the items as
    /// stored. If the transaction fails, nothing is added and every post fails.
    func commit(_ posts: [Validation.Valid]) throws -> [Item] {
        let now = clock.now()
        let createdAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let drafts = posts.map { ItemDraft(title: $0.title, body: $0.body, author: $0.author, createdAt: createdAt, userFields: $0.userFields) }
        let ids = try store.write { store in
            let ids = try drafts.map { draft in try store.insertItems(count: 1) { _ in draft }! }
            // A hand-added item resets the generator's interval, like a generated one.
            try store.setMeta(MetaKey.lastItemTime, double: now.timeIntervalSince1970)
            return ids
        }
        if let newest = ids.max() { inserts.inserted(upTo: newest) }
        return zip(ids, drafts).map { id, draft in
            Item(id: id, title: draft.title, body: draft.body, author: draft.author,
                 createdAt: Date(timeIntervalSince1970: Double(createdAt)), userFields: draft.userFields)
        }
    }
}

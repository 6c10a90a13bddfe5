import Foundation

/// Where a `Feed` keeps its items, sessions and small facts: SQLite (`SQLiteStore`, one process)
/// or PostgreSQL (`PostgresStore`, shared by several processes).
///
/// The feed's rules live in `Feed`, once; a store only runs reads and serialized write
/// transactions. An implementer must guarantee:
/// - `write` bodies run inside one transaction that commits before `write` returns and rolls back
///   entirely if the body throws; bodies that insert run one at a time across every process that
///   shares the data (from `lockForInserts`), and so do bodies that lock the same session;
/// - item ids handed out by `insertItems` are larger than any id ever handed out before (never
///   reused, even after a rollback or a delete) and become visible to readers in id order;
/// - `read` bodies see only committed data;
/// - a failure to reach the database throws `StoreError`, and the next call tries again.
protocol FeedStore: AnyObject, Sendable {
    /// Runs `body` with read access; single statements need no transaction.
    func read<R>(_ body: (any FeedStoreReading) throws -> R) throws -> R
    /// Runs `body` in one write transaction, serialized with every other writer.
    func write<R>(_ body: (any FeedStoreWriting) throws -> R) throws -> R
    /// Calls `handler` after items were inserted by someone else (another process sharing the
    /// data) with the largest new id, or with nil when inserts may have been missed (for example
    /// after a lost connection) and cached facts must be read again. Never called for inserts
    /// made through this store object; may be called on any thread.
    func observeForeignInserts(_ handler: @escaping @Sendable (Int64?) -> Void)
    /// Calls `handler` after another process sharing the data reset the feed
    /// (`FeedStoreWriting.resetFeed(to:)`), with the newest id it left (0: none), or with nil when
    /// a reset may have been missed (as for `observeForeignInserts`). Never called for resets
    /// made through this store object; may be called on any thread.
    func observeForeignResets(_ handler: @escaping @Sendable (Int64?) -> Void)
    /// Calls `handler` after another process sharing the data logged edits or deletions, with
    /// the largest change number, or with nil when some may have been missed (as for
    /// `observeForeignInserts`). Notices arrive in commit order with the inserts'; never called
    /// for changes made through this store object; may be called on any thread.
    func observeForeignChanges(_ handler: @escaping @Sendable (Int64?) -> Void)
    /// Gives disk space back after a large write, where the store has such a notion.
    func compact()
    /// True when other processes may write the same data (PostgreSQL): cached facts are then
    /// checked against the store before they are trusted, since a notification can arrive a
    /// moment after another process already answered its client.
    var isShared: Bool { get }
}

extension FeedStore {
    func compact() {}
    var isShared: Bool { false }
    /// One process owns the data: nobody else resets or changes it.
    func observeForeignResets(_ handler: @escaping @Sendable (Int64?) -> Void) {}
    func observeForeignChanges(_ handler: @escaping @Sendable (Int64?) -> Void) {}
}

/// The reads a store offers inside `FeedStore.read` and `FeedStore.write`.
protocol FeedStoreReading {
    /// Places (items and tombstones) with id < `cursor`, newest first, at most `limit`.
    func places(before cursor: Int64, limit: Int) throws -> [ItemPlace]
    /// Places with id > `cursor`, oldest first, at most `limit` (the ones just above the cursor).
    func oldestPlaces(after cursor: Int64, limit: Int) throws -> [ItemPlace]
    /// Items (not deleted) with id > `cursor`, newest first, at most `limit` (the newest ones).
    func newestItems(after cursor: Int64, limit: Int) throws -> [Item]
    /// The place `id`, nil when no item ever had it.
    func place(_ id: Int64) throws -> ItemPlace?
    /// The largest stored item id (a tombstone's too), nil when there are no items.
    func maxItemID() throws -> Int64?
    /// The last number the feed's sequence handed out (an insert's id or a change's number), 0
    /// for none: it only grows, across resets too.
    func sequence() throws -> Int64
    /// The changes logged after `since`, oldest first, at most `limit`: each item's latest, with
    /// the item as it is now.
    func changes(since: Int64, limit: Int) throws -> [Change]
    /// The items whose latest change is numbered after `since`, with the largest number among
    /// them (nil: none): what a process that had applied the changes up to `since` has not.
    func changedItemIDs(since: Int64) throws -> (ids: [Int64], through: Int64?)
    /// The largest stored item id, the feed's identity and its sequence, as one answer (a
    /// shared store's check).
    func newestAndFeedID() throws -> (newest: Int64?, feedID: FeedID?, sequence: Int64)
    /// How many items are stored (a scan: for start-up messages, not for requests).
    func itemCount() throws -> Int64
    /// The stored session, nil when it never refreshed (or expired).
    func session(_ id: SessionID) throws -> SessionRecord?
    /// The number kept under `key` in the small key/value table (keys: `MetaKey`), nil when none.
    func metaDouble(_ key: String) throws -> Double?
    /// The bytes kept under `key`, nil when none.
    func metaBytes(_ key: String) throws -> [UInt8]?
    /// The origins of the pictures the feed's items draw from other servers (`PictureOrigins`),
    /// sorted.
    func pictureOrigins() throws -> [String]
}

/// The writes a store offers inside `FeedStore.write`.
protocol FeedStoreWriting: FeedStoreReading {
    /// Serializes the rest of this transaction with every other transaction that inserts, across
    /// processes. `insertItems` takes it by itself; call it first where a decision to insert rests
    /// on what was read (seed only an empty feed, generate only when due) and read again after.
    func lockForInserts() throws
    /// Serializes the rest of this transaction with every other one that locks any of these
    /// sessions (a refresh reads a session and writes it back). Call it once, first.
    func lockSessions(_ ids: [SessionID]) throws
    /// Inserts `count` items made by `make(0..<count)`, with consecutive ids above every id ever
    /// handed out, in that order; returns the last id (nil when `count` is 0). Called through
    /// `insertItems`, which keeps their picture origins too.
    func insertRows(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64?
    /// Keeps these picture origins, beside those kept already.
    func addPictureOrigins(_ origins: Set<String>) throws
    /// Gives item `id` new fields (`draft.createdAt` is not used), `version` and `editedAt`
    /// (Unix seconds).
    func updateItem(_ id: Int64, _ draft: ItemDraft, version: Int64, editedAt: Int64) throws
    /// Leaves a tombstone in place of item `id`: its fields are emptied, its place stays.
    func deleteItem(_ id: Int64) throws
    /// Takes the feed's next sequence number, under the insert lock as an insert's id is (so
    /// numbers become visible in order), and makes it item `id`'s latest change; returns it.
    func logChange(of id: Int64) throws -> Int64
    /// Forgets the oldest changes past the newest `kept`; returns the number of the newest one
    /// forgotten (nil: none). Callers move the floor (`MetaKey.changesFloor`) to it.
    func pruneChanges(keeping kept: Int) throws -> Int64?
    /// Deletes every item, change, session and picture origin and gives the feed the identity `id`: the one way a store
    /// is reset (see `Feed.reset(unless:refill:)`); ids handed out stay handed out. Where other
    /// processes share the data, they are told of the reset once this transaction commits,
    /// instead of its inserts.
    func resetFeed(to id: FeedID) throws
    /// Creates or replaces the session's row.
    func saveSession(_ id: SessionID, _ record: SessionRecord) throws
    /// Deletes sessions with `lastActive` < `cutoff`; returns how many.
    func deleteSessions(lastActiveBefore cutoff: Double) throws -> Int
    /// Keeps `value` under `key`, replacing whatever was there.
    func setMeta(_ key: String, double value: Double) throws
    /// Keeps `value` under `key`, replacing whatever was there.
    func setMeta(_ key: String, bytes value: [UInt8]) throws
    /// Stores `value` under `key` only if the key has no value yet.
    func insertMetaIfAbsent(_ key: String, bytes value: [UInt8]) throws
    /// Removes whatever is kept under each of `keys`.
    func deleteMeta(_ keys: [String]) throws
}

extension FeedStoreReading {
    func newestAndFeedID() throws -> (newest: Int64?, feedID: FeedID?, sequence: Int64) {
        (try maxItemID(), try storedFeedID(), try sequence())
    }

    /// Below this, the change log no longer holds every change (0: it holds them all).
    func changesFloor() throws -> Int64 {
        Int64(try metaDouble(MetaKey.changesFloor) ?? 0)
    }
}

extension FeedStoreWriting {
    /// Every insert: the rows (`insertRows`), and the origins of the pictures they draw from
    /// other servers (`PictureOrigins`), in the same transaction, so the page's content policy
    /// allows every picture in the feed whatever brought it.
    func insertItems(count: Int, _ make: (Int) -> ItemDraft) throws -> Int64? {
        var origins = Set<String>()
        let last = try insertRows(count: count) { index in
            let draft = make(index)
            origins.formUnion(PictureOrigins.of(userFields: draft.userFields))
            return draft
        }
        if !origins.isEmpty { try addPictureOrigins(origins) }
        return last
    }
}

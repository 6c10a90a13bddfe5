/// The item reads, written once: a store's transaction supplies its placeholders
/// (`ItemQueries`) and how to run one select, and gets the keyset reads, a single place and the
/// change log's reads.
protocol KeysetItemReading: FeedStoreReading {
    static var itemQueries: ItemQueries { get }
    /// Runs a select of `ItemPlace.storedColumns` with (cursor, limit) and decodes every row.
    func fetchPlaces(_ sql: String, cursor: Int64, limit: Int) throws -> [ItemPlace]
    /// Runs a select of a change's number and `ItemPlace.storedColumns` with (since, limit).
    func fetchChanges(_ sql: String, since: Int64, limit: Int) throws -> [Change]
}

extension KeysetItemReading {
    func places(before cursor: Int64, limit: Int) throws -> [ItemPlace] {
        try fetchPlaces(Self.itemQueries.olderThan, cursor: cursor, limit: limit)
    }

    func oldestPlaces(after cursor: Int64, limit: Int) throws -> [ItemPlace] {
        try fetchPlaces(Self.itemQueries.oldestNewerThan, cursor: cursor, limit: limit)
    }

    func newestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try fetchPlaces(Self.itemQueries.newestNewerThan, cursor: cursor, limit: limit).compactMap(\.item)
    }

    func place(_ id: Int64) throws -> ItemPlace? {
        try fetchPlaces(Self.itemQueries.one, cursor: id, limit: 1).first
    }

    func changes(since: Int64, limit: Int) throws -> [Change] {
        try fetchChanges(Self.itemQueries.changesAfter, since: since, limit: limit)
    }
}

/// The selects on items and the change log, in one store's placeholder syntax. The cursor is the
/// first parameter and the limit the second; the id index serves each keyset one in both
/// directions, and the log's primary key its own.
struct ItemQueries: Sendable {
    /// Places with id < cursor, newest first.
    let olderThan: String
    /// Items (no tombstones) with id > cursor, newest first.
    let newestNewerThan: String
    /// Places with id > cursor, oldest first (the ones just above the cursor).
    let oldestNewerThan: String
    /// The place with id = cursor (the limit is 1).
    let one: String
    /// The changes numbered after the cursor, oldest first: the number, then the place.
    let changesAfter: String

    init(cursor: String, limit: String) {
        let select = "SELECT \(ItemPlace.storedColumns) FROM items WHERE id"
        olderThan = "\(select) < \(cursor) ORDER BY id DESC LIMIT \(limit)"
        newestNewerThan = "\(select) > \(cursor) AND deleted = 0 ORDER BY id DESC LIMIT \(limit)"
        oldestNewerThan = "\(select) > \(cursor) ORDER BY id ASC LIMIT \(limit)"
        one = "\(select) = \(cursor) LIMIT \(limit)"
        changesAfter = """
            SELECT changes.sequence, \(ItemPlace.storedColumns) FROM changes JOIN items ON items.id = changes.item_id
            WHERE changes.sequence > \(cursor) ORDER BY changes.sequence LIMIT \(limit)
            """
    }
}

/// A change as the log's join reads it: the number, then the item's place.
struct ChangeRow<Row: StoreRow>: StoreRow {
    let row: Row

    func int64(_ column: Int32) -> Int64 { row.int64(column + 1) }
    func double(_ column: Int32) -> Double { row.double(column + 1) }
    func string(_ column: Int32) -> String { row.string(column + 1) }
    func isNull(_ column: Int32) -> Bool { row.isNull(column + 1) }

    var change: Change {
        let place = ItemPlace(row: self)
        return Change(sequence: row.int64(0), kind: place.item.map(Change.Kind.updated) ?? .deleted(place.id))
    }
}

/// The change log's statements both stores write alike, in a store's placeholder syntax.
enum SQLForChanges {
    /// Empties item `$id`'s fields and marks it deleted; its place and id stay.
    static func tombstone(_ id: String) -> String {
        "UPDATE items SET title = '', body = '', author = '', user_fields = '', deleted = 1 WHERE id = \(id)"
    }

    /// The number of the newest change past the newest `$kept`: it and every older one go.
    static func pruneCutoff(_ kept: String) -> String {
        "SELECT sequence FROM changes ORDER BY sequence DESC LIMIT 1 OFFSET \(kept)"
    }
}

/// The three keyset reads of items, written once: a store's transaction supplies its
/// placeholders (`ItemQueries`) and how to run one select, and gets `items(before:limit:)`,
/// `newestItems(after:limit:)` and `oldestItems(after:limit:)`.
protocol KeysetItemReading: FeedStoreReading {
    static var itemQueries: ItemQueries { get }
    /// Runs a select of `Item.storedColumns` with (cursor, limit) and decodes every row.
    func fetchItems(_ sql: String, cursor: Int64, limit: Int) throws -> [Item]
}

extension KeysetItemReading {
    func items(before cursor: Int64, limit: Int) throws -> [Item] {
        try fetchItems(Self.itemQueries.olderThan, cursor: cursor, limit: limit)
    }

    func newestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try fetchItems(Self.itemQueries.newestNewerThan, cursor: cursor, limit: limit)
    }

    func oldestItems(after cursor: Int64, limit: Int) throws -> [Item] {
        try fetchItems(Self.itemQueries.oldestNewerThan, cursor: cursor, limit: limit)
    }
}

/// The keyset selects on items, in one store's placeholder syntax. The cursor is the first
/// parameter and the limit the second; the id index serves each one in both directions.
struct ItemQueries: Sendable {
    /// Items with id < cursor, newest first.
    let olderThan: String
    /// Items with id > cursor, newest first.
    let newestNewerThan: String
    /// Items with id > cursor, oldest first (the ones just above the cursor).
    let oldestNewerThan: String

    init(cursor: String, limit: String) {
        let select = "SELECT \(Item.storedColumns) FROM items WHERE id"
        olderThan = "\(select) < \(cursor) ORDER BY id DESC LIMIT \(limit)"
        newestNewerThan = "\(select) > \(cursor) ORDER BY id DESC LIMIT \(limit)"
        oldestNewerThan = "\(select) > \(cursor) ORDER BY id ASC LIMIT \(limit)"
    }
}

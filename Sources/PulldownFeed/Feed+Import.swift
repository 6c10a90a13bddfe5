import CNettle
import Foundation

/// One entry of a data file, as read: the fields of a post and, if the file gave one, its time.
public struct ImportedItem: Sendable {
    public var new: NewItem
    public var createdAt: Date?

    public init(new: NewItem, createdAt: Date?) {
        self.new = new
        self.createdAt = createdAt
    }
}

/// Why a data file was not imported.
public enum ImportError: Error, Equatable {
    /// Entry `index` (from 0, in the file's order) has bad fields.
    case invalidEntry(index: Int, [FieldError])
    /// The store holds items from elsewhere (the demo seed, posts, another file): `--reset` replaces them.
    case storeHoldsOtherItems(fromAnotherFile: Bool)
}

/// What an import did.
public enum ImportOutcome: Sendable, Equatable {
    /// The store was filled from the same file before: everything in it is kept.
    case kept
    case imported(count: Int)
}

extension Feed {
    /// The SHA-256 of a data file's bytes: what the store remembers it was filled from.
    public static func contentHash(_ bytes: [UInt8]) -> [UInt8] {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        bytes.withUnsafeBufferPointer { nettle_sha256_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&context, digest.count, &digest)
        return digest
    }

    /// Fills the store from a data file's entries, in one transaction: all of them or none.
    ///
    /// Entries with `createdAt` are placed by it (the newest is the newest item); an entry
    /// without one is placed by its position, the file's first entry the newest, just now, each
    /// next one a second older. A store already filled from the same file (`hash`) is kept as it
    /// is, with the sessions and posts since; any other store with items is refused, unless
    /// `reset`, which deletes its items and sessions first.
    public func importItems(_ entries: [ImportedItem], hash: [UInt8], reset: Bool) throws -> ImportOutcome {
        var valid: [(Validation.Valid, Int64)] = []
        valid.reserveCapacity(entries.count)
        let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        for (index, entry) in entries.enumerated() {
            do {
                let item = try Validation.check(entry.new)
                let time = entry.createdAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? now - Int64(index)
                valid.append((item, time))
            } catch .invalid(let errors) {
                throw ImportError.invalidEntry(index: index, errors)
            }
        }
        // Oldest first, so ids grow with time; equal times keep the file's order, newest first.
        let ordered = valid.enumerated().sorted { a, b in
            a.element.1 != b.element.1 ? a.element.1 < b.element.1 : a.offset > b.offset
        }.map(\.element)
        let outcome: ImportOutcome = try store.write { store in
            try store.lockForInserts()
            if try store.maxItemID() != nil && !reset {
                let source = try store.metaBytes(MetaKey.dataSource)
                if source == hash { return .kept }
                throw ImportError.storeHoldsOtherItems(fromAnotherFile: source != nil)
            }
            if reset { try store.deleteItemsAndSessions() }
            _ = try store.insertItems(count: ordered.count) { index in
                let (item, time) = ordered[index]
                return ItemDraft(title: item.title, body: item.body, author: item.author, createdAt: time,
                                 userFields: item.userFields)
            }
            try store.setMeta(MetaKey.dataSource, bytes: hash)
            try store.setMeta(MetaKey.lastItemTime, double: Double(now))
            return .imported(count: ordered.count)
        }
        if case .imported = outcome {
            // Cached pages and the newest id must not outlive deleted items.
            if let newest = try store.read({ try $0.maxItemID() }) { inserts.inserted(upTo: newest) }
        }
        return outcome
    }
}

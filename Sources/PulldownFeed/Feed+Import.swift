import Foundation
import InvalidInput

/// One entry of a data file, as read: the fields of a post and, if the file gave one, its time.
public struct ImportedItem: Sendable {
    public var new: NewItem
    public var createdAt: Date?

    public init(new: NewItem, createdAt: Date?) {
        self.new = new
        self.createdAt = createdAt
    }
}

/// What the store remembers of the data file it was filled from: the SHA-256 of the file's bytes
/// up to the end of the last entry it took in, and where that is (`resume`, the reader's own
/// notation). A file that still begins with exactly those bytes is the same file, perhaps grown.
public struct DataSourceMark: Sendable, Equatable {
    public var digest: [UInt8]
    public var resume: [UInt8]

    public init(digest: [UInt8], resume: [UInt8]) {
        self.digest = digest
        self.resume = resume
    }
}

/// The entries of a data file, read twice: once in the file's order to check them all before
/// anything is written, then by number, in the order the feed stores them. So only one entry at
/// a time (or one batch) is ever held, whatever the size of the file.
public protocol ImportSource: AnyObject {
    /// Every entry to take in, in the file's order; returns the mark to remember once they are.
    func forEachEntry(_ body: (ImportedItem) throws -> Void) throws -> DataSourceMark
    /// The entries numbered `numbers` (from 0, in the order `forEachEntry` gave them), again.
    func entries(at numbers: [Int]) throws -> [ImportedItem]
}

/// Why a data file was not imported.
public enum ImportError: Error, Equatable {
    /// Entry `index` (from 0, in the order the source gave them) has bad fields.
    case invalidEntry(index: Int, [InvalidParam])
    /// The store holds items from elsewhere (the demo seed, posts, another file): `--reset` replaces them.
    case storeHoldsOtherItems(fromAnotherFile: Bool)
}

/// What the store holds, as far as a data file is concerned.
public enum DataSourceState: Sendable, Equatable {
    case empty
    /// The demo feed and nothing else (seeded, generated, or added by the demo API).
    case demo
    /// Items that came from no data file, posts among them.
    case otherItems
    case filled(DataSourceMark)

    /// What `store` holds.
    static func read(from store: any FeedStoreReading) throws -> DataSourceState {
        guard let newest = try store.maxItemID() else { return .empty }
        if let digest = try store.metaBytes(MetaKey.dataSource) {
            return .filled(DataSourceMark(digest: digest, resume: try store.metaBytes(MetaKey.dataSourceResume) ?? []))
        }
        return Int64(try store.metaDouble(MetaKey.demoFeedThrough) ?? 0) == newest ? .demo : .otherItems
    }
}

/// What an import may replace, in the store it fills.
public enum ImportReplacing: Sendable {
    /// Nothing: the store must be empty.
    case nothing
    /// The demo feed, untouched: a first `--data` on a store that `make run` seeded.
    case demoFeed
    /// Whatever the store holds (`--reset`).
    case everything
}

extension Feed {
    /// Entries stored per statement batch: a bounded number held in memory at once.
    static let importBatch = 1000

    public func dataSourceState() throws -> DataSourceState {
        try store.read { try DataSourceState.read(from: $0) }
    }

    /// Fills the store from a data file's entries, in one transaction: all of them or none;
    /// returns how many.
    ///
    /// Entries with `createdAt` are placed by it (the newest is the newest item); an entry
    /// without one is placed by its position, the file's first entry the newest, just now, each
    /// next one a second older. A store with items is refused, unless `replacing` allows what it
    /// holds: then the import is a reset (`reset(unless:refill:)`), which empties the store and
    /// renews its identity first (a store filled from the same file is `appendItems`' case).
    public func importItems(from source: any ImportSource, replacing: ImportReplacing) throws -> Int {
        let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        // Only the time of each entry is kept: 16 bytes an entry.
        var times: [(time: Int64, number: Int32)] = []
        let mark = try Self.check(source) { number, entry in
            times.append((entry.createdAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? now - Int64(number),
                          Int32(number)))
        }
        // Oldest first, so ids grow with time; equal times keep the file's order, newest first.
        times.sort { a, b in a.time != b.time ? a.time < b.time : a.number > b.number }
        func fill(_ store: any FeedStoreWriting) throws {
            try Self.insert(times.lazy.map { (Int($0.number), $0.time) }, from: source, into: store)
            try Self.remember(mark, lastItemTime: Double(now), in: store)
        }
        /// Refuses a store that holds what the import may not replace; under the insert lock.
        func refuseUnlessReplaceable(_ store: any FeedStoreReading) throws {
            switch (try DataSourceState.read(from: store), replacing) {
            case (.empty, _), (_, .everything), (.demo, .demoFeed): return
            case (let state, _):
                if case .filled = state { throw ImportError.storeHoldsOtherItems(fromAnotherFile: true) }
                throw ImportError.storeHoldsOtherItems(fromAnotherFile: false)
            }
        }
        if replacing == .nothing {
            let newest: Int64? = try store.write { store in
                try store.lockForInserts()
                try refuseUnlessReplaceable(store)
                try fill(store)
                return try store.maxItemID()
            }
            if let newest { inserts.inserted(upTo: newest) }
        } else {
            _ = try reset(unless: refuseUnlessReplaceable, refill: fill)
        }
        return times.count
    }

    /// Adds the entries of a data file past what the store took in from it (`previous`: it grew,
    /// by a restart or while `--watch` follows it) as the newest items, the last one newest, all
    /// at the time they are added; in one transaction with the new mark, and told to open event
    /// streams as posts are. Refused when the store no longer remembers `previous`. Returns how
    /// many were added.
    @discardableResult
    public func appendItems(from source: any ImportSource, after previous: DataSourceMark) throws -> Int {
        var count = 0
        let mark = try Self.check(source) { _, _ in count += 1 }
        let now = clock.now()
        let time = Int64(now.timeIntervalSince1970.rounded(.down))
        let newest: Int64? = try store.write { store in
            try store.lockForInserts()
            guard try store.metaBytes(MetaKey.dataSource) == previous.digest else {
                throw ImportError.storeHoldsOtherItems(fromAnotherFile: true)
            }
            let newest = try Self.insert((0..<count).lazy.map { ($0, time) }, from: source, into: store)
            try Self.remember(mark, lastItemTime: count > 0 ? now.timeIntervalSince1970 : nil, in: store)
            return newest
        }
        if let newest { inserts.inserted(upTo: newest) }
        return count
    }

    /// Every entry of `source` checked as a post is, each valid one to `body` with its number.
    private static func check(_ source: any ImportSource, _ body: (Int, ImportedItem) -> Void) throws -> DataSourceMark {
        var number = 0
        return try source.forEachEntry { entry in
            do {
                _ = try Validation.check(entry.new)
            } catch FeedError.invalid(let errors) {
                throw ImportError.invalidEntry(index: number, errors)
            }
            body(number, entry)
            number += 1
        }
    }

    /// Inserts the entries `order` names, with their times, in batches; returns the last id.
    @discardableResult
    private static func insert(_ order: some Sequence<(Int, Int64)>, from source: any ImportSource,
                               into store: any FeedStoreWriting) throws -> Int64? {
        var last: Int64?
        var batch: [(Int, Int64)] = []
        batch.reserveCapacity(importBatch)
        func flush() throws {
            let entries = try source.entries(at: batch.map(\.0))
            // Checked again: the file is read anew, and must not have changed in between.
            let drafts = try zip(entries, batch).map { entry, place throws in
                let item: Validation.Valid
                do {
                    item = try Validation.check(entry.new)
                } catch FeedError.invalid(let errors) {
                    throw ImportError.invalidEntry(index: place.0, errors)
                }
                return ItemDraft(title: item.title, body: item.body, author: item.author, createdAt: place.1,
                                 userFields: item.userFields)
            }
            last = try store.insertItems(count: drafts.count) { drafts[$0] } ?? last
            batch.removeAll(keepingCapacity: true)
        }
        for entry in order {
            batch.append(entry)
            if batch.count == importBatch { try flush() }
        }
        if !batch.isEmpty { try flush() }
        return last
    }

    private static func remember(_ mark: DataSourceMark, lastItemTime: Double?, in store: any FeedStoreWriting) throws {
        try store.setMeta(MetaKey.dataSource, bytes: mark.digest)
        try store.setMeta(MetaKey.dataSourceResume, bytes: mark.resume)
        if let lastItemTime { try store.setMeta(MetaKey.lastItemTime, double: lastItemTime) }
    }
}

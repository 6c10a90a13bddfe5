import CJansson
import Foundation
import Hashing
import PulldownFeed

/// What a data file's mark (`DataSourceMark`) says the store took in: which entries, by their
/// canonical forms (`EntryChain`), and where they ended in the file as it was then, so a file
/// whose bytes are unchanged up to there is read on from there without parsing them again.
struct TakenIn: Equatable {
    /// The entries' `EntryChain` digest; nil for a mark written before entries were compared,
    /// whose digest is of the bytes (`bytes`): such a file is the same only byte for byte.
    var chain: [UInt8]?
    /// Where the last entry taken in ends, and how many there are.
    var checkpoint: EntryLoop.Checkpoint
    /// SHA-256 of the file's bytes up to `checkpoint`.
    var bytes: [UInt8]

    /// The mark as the store keeps it: the chain is its identity (what `Feed.appendItems`
    /// compares), the rest the reader's notation, `shape offset line column entries bytes-in-hex`.
    var mark: DataSourceMark {
        let place = checkpoint.position
        let text = "\(checkpoint.shape.rawValue) \(place.offset) \(place.line) \(place.column) \(checkpoint.entries) "
            + Hex.encode(bytes)
        return DataSourceMark(digest: chain ?? bytes, resume: Array(text.utf8))
    }

    init(chain: [UInt8]?, checkpoint: EntryLoop.Checkpoint, bytes: [UInt8]) {
        self.chain = chain
        self.checkpoint = checkpoint
        self.bytes = bytes
    }

    /// What `mark` says; nil when it is not in this notation (nor the one before it, without
    /// the bytes' digest).
    init?(_ mark: DataSourceMark) {
        let parts = String(decoding: mark.resume, as: UTF8.self).split(separator: " ")
        guard parts.count == 5 || parts.count == 6, let shape = EntryLoop.Shape(rawValue: String(parts[0])),
              let offset = Int64(parts[1]), let line = Int(parts[2]), let column = Int(parts[3]),
              let entries = Int(parts[4]), offset >= 0, line >= 1, column >= 0, entries >= 0 else { return nil }
        checkpoint = EntryLoop.Checkpoint(shape: shape, position: .init(offset: offset, line: line, column: column),
                                             entries: entries)
        guard parts.count == 6 else {
            chain = nil
            bytes = mark.digest
            return
        }
        guard let digest = Hex.decode(String(parts[5])), digest.count == 32 else { return nil }
        chain = mark.digest
        bytes = digest
    }
}

extension DataSourceMark {
    /// How many entries of its file the store took in, as the mark says; nil for a mark of
    /// another notation.
    public var entriesTakenIn: Int? { TakenIn(self)?.checkpoint.entries }
}

/// The entries of a data file, compared as what they say rather than how they are written: each
/// entry's canonical form (Jansson's compact JSON with sorted keys, its escapes and numbers
/// written one way) is chained into a digest, so a file saved again with other indentation, key
/// order or line breaks chains to the same digest, and an entry edited or removed does not.
struct EntryChain {
    private(set) var digest: [UInt8]

    /// The chain that `digest` ended; of no entry yet (SHA-256 of nothing) when nil.
    init(digest: [UInt8]? = nil) {
        self.digest = digest ?? ContentHash.digest(of: [UInt8]())
    }

    /// The canonical form of `entry`, as it was parsed (before anything in it is resolved).
    static func canonical(_ entry: UnsafeMutablePointer<json_t>) -> [UInt8] {
        guard let text = json_dumps(entry, Int(JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)) else { return [] }
        defer { free(text) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
    }

    /// The chain with one more entry, given by its canonical form.
    mutating func add(_ canonical: [UInt8]) {
        var hash = ContentHash()
        digest.withUnsafeBufferPointer { hash.add($0) }
        canonical.withUnsafeBufferPointer { hash.add($0) }
        digest = hash.digest()
    }
}

import CJansson
import Foundation
import Hashing
import PulldownFeed

/// Reads a data file from its start, a chunk at a time: the part the store already took in
/// (up to a checkpoint) is only hashed, to tell whether it is unchanged; the rest is read into
/// entries (`EntryLoop`), each handed on as it is read, with the digest of the file up to its
/// end.
struct DataFileReader {
    /// Where the reading got to: just past the last entry handed on without a failure.
    struct Progress {
        var checkpoint: EntryLoop.Checkpoint
        var digest: [UInt8]
        /// The failure that stopped it, if one did.
        var failure: (any Error)?
    }

    enum Problem: Error, CustomStringConvertible {
        /// errno's words.
        case unreadable(String)
        /// The bytes up to the checkpoint are not the ones the store took in.
        case prefixDiffers
        /// The file is in another encoding, named.
        case notUTF8(String)

        var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .prefixDiffers: "the file does not begin as it did"
            case .notUTF8(let encoding): "the file is \(encoding), not UTF-8"
            }
        }
    }

    let path: String
    /// `--collection` (see `EntryLoop`).
    var collection: String? = nil

    /// Each value found, with a way to the digest of the file up to its end.
    typealias Each = (EntryLoop.Value, _ digestToHere: () -> [UInt8]) throws -> Void

    /// Reads on from `start` (whose bytes must hash to `digest`), each entry to `each`. `strict`:
    /// the end of the file must end the document (a start-up import); otherwise an entry still
    /// being written at the end is left for a later read (`--watch`).
    func read(from start: EntryLoop.Checkpoint, digest expected: [UInt8]?, strict: Bool,
              _ each: Each) throws(Problem) -> Progress {
        let descriptor = try Self.open(path)
        defer { close(descriptor) }
        let hash = try Self.hashPrefix(of: descriptor, upTo: start.position.offset, expecting: expected)
        let bytes = DataFileBytes(.descriptor(descriptor), from: start.position, hash: hash)
        var loop = EntryLoop(start, collection: collection, strict: strict)
        var progress = Progress(checkpoint: start, digest: hash.digest())
        do {
            while let value = try loop.next(bytes) {
                defer { json_decref(value.json) }
                try each(value) { bytes.digest() }
                if case .entry(let index) = value.role {
                    progress.checkpoint.position = value.end
                    progress.checkpoint.entries = index + 1
                    progress.digest = bytes.digest()
                }
            }
        } catch EntryLoop.Failure.unreadable(let reason) {
            throw .unreadable(reason)
        } catch {
            progress.failure = error
        }
        return progress
    }

    /// The shape of the file (`EntryLoop.shape`).
    func shape() throws(Problem) -> EntryLoop.Verdict {
        let descriptor = try Self.open(path)
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: 4)
        let got = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        if let encoding = EntryLoop.encoding(of: Array(start.prefix(max(0, got)))) { throw .notUTF8(encoding) }
        do {
            return try EntryLoop.shape(of: DataFileBytes(.descriptor(descriptor)), collection: collection)
        } catch {
            // Only reading can fail here: what Jansson makes of the first object is a verdict.
            guard case .unreadable(let reason) = error else { return .notAnItemFile }
            throw .unreadable(reason)
        }
    }

    private static func open(_ path: String) throws(Problem) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        return descriptor
    }

    /// The hash of the file's first `length` bytes, which must be `expected`; the file is read
    /// on from there.
    private static func hashPrefix(of descriptor: Int32, upTo length: Int64, expecting expected: [UInt8]?) throws(Problem) -> ContentHash {
        var hash = ContentHash()
        var chunk = [UInt8](repeating: 0, count: DataFileBytes.chunkBytes)
        var left = length
        while left > 0 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, Int(min(Int64($0.count), left))) }
            guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            // The file is shorter than what the store took in.
            if count == 0 { throw .prefixDiffers }
            chunk.withUnsafeBufferPointer { hash.add(UnsafeBufferPointer(rebasing: $0[..<count])) }
            left -= Int64(count)
        }
        if let expected, hash.digest() != expected { throw .prefixDiffers }
        return hash
    }
}

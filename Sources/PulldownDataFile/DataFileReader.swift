import Foundation
import Hashing
import PulldownFeed

/// Reads a data file from its start, a chunk at a time: the part the store already took in
/// (up to a checkpoint) is only hashed, to tell whether it is unchanged; the rest is scanned into
/// entries (`EntryScanner`), each handed on as it completes, with the digest of the file up to
/// its end.
struct DataFileReader {
    static let chunkBytes = 1 << 16

    /// Where the reading got to: just past the last entry handed on without a failure.
    struct Progress {
        var checkpoint: EntryScanner.Checkpoint
        var digest: [UInt8]
        /// The failure that stopped it, if one did.
        var failure: (any Error)?
    }

    enum Problem: Error {
        case unreadable(String)
        /// The bytes up to the checkpoint are not the ones the store took in.
        case prefixDiffers
    }

    let path: String
    /// `--collection` (see `EntryScanner`).
    var collection: String? = nil

    /// Each value found, with a way to the digest of the file up to its end.
    typealias Each = (EntryScanner.Value, _ digestToHere: () -> [UInt8]) throws -> Void

    /// Reads on from `start` (whose bytes must hash to `digest`), each entry to `each`. `strict`:
    /// the end of the file must end the document (a start-up import); otherwise an entry still
    /// being written at the end is left for a later read (`--watch`).
    func read(from start: EntryScanner.Checkpoint, digest expected: [UInt8]?, strict: Bool,
              _ each: Each) throws(Problem) -> Progress {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var hash = ContentHash()
        var scanner = EntryScanner(start, collection: collection)
        var progress = Progress(checkpoint: start, digest: hash.digest())
        let prefixEnd = start.position.offset
        if prefixEnd == 0, let expected, expected != progress.digest { throw .prefixDiffers }
        var offset: Int64 = 0
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            if count == 0 { break }
            let base = offset
            offset += Int64(count)
            let stop = try chunk.withUnsafeBufferPointer { whole throws(Problem) -> Bool in
                var bytes = UnsafeBufferPointer(rebasing: whole[..<count])
                if base < prefixEnd {
                    // The part the store took in is hashed only.
                    let skipped = Int(min(Int64(count), prefixEnd - base))
                    hash.add(UnsafeBufferPointer(rebasing: bytes[..<skipped]))
                    if base + Int64(skipped) == prefixEnd {
                        progress.digest = hash.digest()
                        if let expected, progress.digest != expected { throw .prefixDiffers }
                    }
                    bytes = UnsafeBufferPointer(rebasing: bytes[skipped...])
                }
                return take(bytes, at: offset - Int64(bytes.count), scanner: &scanner, hash: &hash,
                            progress: &progress, each)
            }
            if stop { return progress }
        }
        guard offset >= prefixEnd else { throw .prefixDiffers }
        if strict {
            do {
                if let last = try scanner.finish() { try hand(last, hash: hash, progress: &progress, each) }
            } catch {
                progress.failure = error
            }
        }
        return progress
    }

    /// Scans `bytes` (from file offset `base`), hashing them and handing on each completed
    /// entry; true when a failure stops the reading.
    private func take(_ bytes: UnsafeBufferPointer<UInt8>, at base: Int64, scanner: inout EntryScanner,
                      hash: inout ContentHash, progress: inout Progress, _ each: Each) -> Bool {
        guard !bytes.isEmpty else { return false }
        let scanned = scanner.scan(bytes)
        var hashed = 0
        for value in scanned.values {
            let end = Int(value.end.offset - base)
            hash.add(UnsafeBufferPointer(rebasing: bytes[hashed..<end]))
            hashed = end
            do {
                try hand(value, hash: hash, progress: &progress, each)
            } catch {
                progress.failure = error
                return true
            }
        }
        if let failure = scanned.failure {
            progress.failure = failure
            return true
        }
        hash.add(UnsafeBufferPointer(rebasing: bytes[hashed...]))
        return false
    }

    private func hand(_ value: EntryScanner.Value, hash: ContentHash, progress: inout Progress, _ each: Each) throws {
        try each(value) { hash.digest() }
        if case .entry(let index) = value.role {
            progress.checkpoint.position = value.end
            progress.checkpoint.entries = index + 1
            progress.digest = hash.digest()
        }
    }
}

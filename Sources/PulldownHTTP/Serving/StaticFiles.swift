import Foundation
import Synchronization

/// Serves the files of one folder from memory, each with an ETag and, for text, a gzip copy.
///
/// Files are read, hashed and compressed when loaded, not per request. A request can only
/// name a file found by walking the folder, so no path it sends can reach anything else;
/// symbolic links that lead out of the folder are left out of the walk. `reloadIfChanged()`
/// picks up edits, so a page being worked on shows them on the next reload.
public final class StaticFiles: Sendable {
    let root: String
    private let files: Mutex<Snapshot>
    private let changes = Atomic<UInt64>(0)

    /// The largest file served; bigger ones are left out rather than held in memory.
    static let maxFileSize = 8 << 20

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(root: String) throws(LoadError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LoadError(description: "the public folder \(root) does not exist or is not a folder")
        }
        guard let real = realpath(root, nil) else {
            throw LoadError(description: "the public folder \(root) cannot be read")
        }
        self.root = String(cString: real)
        free(real)
        self.files = Mutex(Snapshot.load(root: self.root, previous: nil))
    }

    /// The relative paths currently served, sorted.
    var paths: [String] {
        files.withLock { $0.entries.keys.sorted() }
    }

    /// Re-reads files whose size or modification time changed, and notices added and removed ones.
    public func reloadIfChanged() {
        let previous = files.withLock { $0 }
        let next = Snapshot.load(root: root, previous: previous)
        files.withLock { $0 = next }
        if next != previous { changes.add(1, ordering: .releasing) }
    }

    /// Moves whenever a reload found a file added, removed or changed: a page built from these
    /// files is still current while this has not moved, which costs one atomic read to check.
    public var generation: UInt64 { changes.load(ordering: .acquiring) }

    /// The response for a request to a path not claimed by any route.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let relativePath = Self.relativePath(for: request.target.segments),
              let file = files.withLock({ $0.entries[relativePath] })
        else {
            return Problem.notFound("Nothing is served at \(request.path).").response
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return Problem.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response
        }
        return file.body.response(to: request)
    }

    /// The file at `relativePath` (`index.html`, `sub/page.css`) as it is served now, or nil
    /// when there is none: for a page that the application fills in before serving it.
    public func file(_ relativePath: String) -> PreparedBody? {
        files.withLock { $0.entries[relativePath]?.body }
    }

    /// The key of a file for the decoded path segments, or nil when a segment could step
    /// outside the folder or name a hidden file (`..`, `.`, `.git`, separators, NUL).
    static func relativePath(for segments: [String]) -> String? {
        var parts = segments
        if parts.last == "" || parts.isEmpty {
            if !parts.isEmpty { parts.removeLast() }
            parts.append("index.html")
        }
        for part in parts {
            // Byte checks, not String.contains: Foundation's version goes through NSString.
            if part.isEmpty || part.hasPrefix(".") || part.utf8.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) {
                return nil
            }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `Accept-Encoding` allows gzip (present and not refused with `q=0`). Scans the
    /// bytes in place, without splitting into arrays: it runs for every file served.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard var header else { return false }
        return header.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                if let accepted = gzipAcceptance(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return accepted }
                start = end + 1
            }
            return false
        }
    }

    /// For one coding of `Accept-Encoding` (`name;param;param`): nil when it is not gzip, else
    /// whether it is accepted (no `q=0`).
    private static func gzipAcceptance(_ coding: UnsafeBufferPointer<UInt8>) -> Bool? {
        let nameEnd = coding.firstIndex(of: UInt8(ascii: ";")) ?? coding.count
        let name = trimmed(coding[..<nameEnd])
        guard equalsIgnoringCase(name, "gzip") || equalsIgnoringCase(name, "x-gzip") else { return nil }
        // Only gzip's own parameters are split out, and gzip rarely has any.
        let refused = coding[nameEnd...].split(separator: UInt8(ascii: ";")).contains { parameter in
            let text = String(decoding: trimmed(parameter), as: UTF8.self)
            guard text.hasPrefix("q=") || text.hasPrefix("Q=") else { return false }
            return (Double(text.dropFirst(2)) ?? 1) == 0
        }
        return !refused
    }

    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }

    private static func equalsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        var expected = lowercase.utf8Start
        for byte in bytes {
            let folded: UInt8 = byte >= 65 && byte <= 90 ? byte + 32 : byte
            if folded != expected.pointee { return false }
            expected += 1
        }
        return true
    }
}

struct StaticFile: Sendable, Equatable {
    let modified: Date
    let size: Int
    let body: PreparedBody

    /// Same size and time is the same file: that is how a reload decides to re-read it.
    static func == (a: StaticFile, b: StaticFile) -> Bool { a.size == b.size && a.modified == b.modified }
}

struct Snapshot: Sendable, Equatable {
    var entries: [String: StaticFile] = [:]

    static func load(root: String, previous: Snapshot?) -> Snapshot {
        var snapshot = Snapshot()
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: root) else { return snapshot }
        while let relative = walker.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") }) { continue }
            let fullPath = root + "/" + relative
            guard let real = realpath(fullPath, nil) else { continue }
            let resolved = String(cString: real)
            free(real)
            // A link that points out of the folder is never served.
            guard resolved.hasPrefix(root + "/") else { continue }
            guard let attributes = try? manager.attributesOfItem(atPath: resolved),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = attributes[.size] as? Int, size <= StaticFiles.maxFileSize,
                  let modified = attributes[.modificationDate] as? Date
            else { continue }
            if let old = previous?.entries[relative], old.size == size, old.modified == modified {
                snapshot.entries[relative] = old
                continue
            }
            guard let data = manager.contents(atPath: resolved) else { continue }
            snapshot.entries[relative] = makeFile(name: relative, bytes: [UInt8](data), size: size, modified: modified)
        }
        return snapshot
    }

    private static func makeFile(name: String, bytes: [UInt8], size: Int, modified: Date) -> StaticFile {
        StaticFile(modified: modified, size: size,
                   body: PreparedBody(bytes, contentType: MediaTypes.contentType(forFileName: name)))
    }
}

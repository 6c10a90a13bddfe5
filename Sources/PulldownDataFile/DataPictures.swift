import CJansson
import Foundation
import Hashing
import ItemFields
import Synchronization

/// Pictures a data file names by a relative path (`"avatar": "ana.png"`), resolved against the
/// file's folder and served under `routePrefix`, named by their content:
/// `/media/data/<digest>/<path>`, the first 16 hex digits of the file's SHA-256 when the data
/// file named it, then its path inside the folder as one percent-encoded segment. So a URL is
/// `immutable` for good: it answers those bytes from any store, after any restart or reset, or
/// nothing (404) once the file changed; and nothing need be remembered to serve it. A request
/// reaches only a picture file inside the folder once symlinks are followed, and only with its
/// digest. Shared: entries `--watch` adds may name more pictures.
public final class DataPictures: Sendable {
    public static let routePrefix = "/media/data/"
    static let contentTypes = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
                               "webp": "image/webp", "avif": "image/avif", "svg": "image/svg+xml"]
    /// Why a relative path was refused.
    enum Refusal: Error, Equatable {
        /// It leads out of the data file's folder (`..`, or a symlink pointing out).
        case outside
        /// Nothing is there.
        case missing
        /// A folder, or a file of another kind.
        case notAPicture
        /// A picture file this process may not read.
        case unreadable

        func reason(for relative: String) -> String {
            switch self {
            case .outside: "must be a picture inside the data file's folder, and \(relative) leads out of it"
            case .missing: "names \(relative), which is missing: there is no such file in the data file's folder"
            case .notAPicture: "must be a picture file (png, jpg, gif, webp, avif, svg), and \(relative) is not one"
            case .unreadable: "names \(relative), which cannot be read (check its permissions)"
            }
        }
    }

    /// Relative path as written → served URL: a file names the same few pictures over and over,
    /// and each is resolved (a realpath, a stat and a digest) once.
    private let resolved = Mutex<[String: String]>([:])
    private let folder: String?
    /// Hex digits of the SHA-256 in a served name.
    static let digestLength = 16

    public init(dataFile path: String) {
        folder = (realpath(path, nil)).map { resolved in
            defer { free(resolved) }
            return (String(cString: resolved) as NSString).deletingLastPathComponent
        }
    }

    static func isRelative(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return !text.isEmpty && text.utf8.first != UInt8(ascii: "/") && !lowered.hasPrefix("http://") && !lowered.hasPrefix("https://")
    }

    /// The served URL of the picture at `relative`, or why there is none.
    func url(for relative: String) -> Result<String, Refusal> {
        if let known = resolved.withLock({ $0[relative] }) { return .success(known) }
        return file(at: relative).map { _, inside, bytes in
            let served = Self.routePrefix + Self.digest(of: bytes) + "/" + Self.percentEncoded(inside)
            resolved.withLock { $0[relative] = served }
            return served
        }
    }

    /// The picture a served name names (its digest, and its path inside the folder, decoded),
    /// nil when there is none or the file changed since: its bytes and media type.
    public func picture(digest: String, path: String) -> (bytes: [UInt8], contentType: String)? {
        guard case .success(let (real, _, bytes)) = file(at: path), Self.digest(of: bytes) == digest,
              let type = Self.contentType(real) else { return nil }
        return (bytes, type)
    }

    /// The real path, the path inside the folder and the bytes of the picture file at `relative`,
    /// or why there is none.
    private func file(at relative: String) -> Result<(real: String, inside: String, bytes: [UInt8]), Refusal> {
        guard let folder, !relative.contains("\0") else { return .failure(.missing) }
        guard let resolved = realpath(folder + "/" + relative, nil) else {
            return .failure(Self.climbsOut(relative) ? .outside : .missing)
        }
        let real = String(cString: resolved)
        free(resolved)
        guard real.hasPrefix(folder + "/") else { return .failure(.outside) }
        var status = stat()
        guard stat(real, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Self.contentType(real) != nil else {
            return .failure(.notAPicture)
        }
        guard let data = FileManager.default.contents(atPath: real) else { return .failure(.unreadable) }
        // Bytes, not characters: a folder's name may hold letters of more than one byte.
        let inside = String(decoding: real.utf8.dropFirst(folder.utf8.count + 1), as: UTF8.self)
        return .success((real, inside, Array(data)))
    }

    /// Whether `relative`, read as written, goes above the folder it starts in.
    private static func climbsOut(_ relative: String) -> Bool {
        var depth = 0
        for part in relative.split(separator: "/") where part != "." {
            depth += part == ".." ? -1 : 1
            if depth < 0 { return true }
        }
        return false
    }

    private static func digest(of bytes: [UInt8]) -> String {
        String(Hex.encode(ContentHash.digest(of: bytes)).prefix(digestLength))
    }

    /// Every byte but letters, digits and `.-_~` as `%XX`, `/` included: one path segment.
    private static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            return byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_~".unicodeScalars.contains(scalar))
                ? String(scalar) : String(format: "%%%02X", byte)
        }.joined()
    }

    static func contentType(_ path: String) -> String? {
        contentTypes[(path as NSString).pathExtension.lowercased()]
    }

    /// Replaces a relative `avatar` and `image.url` of `entry` by their served URLs; returns the
    /// name of a field whose path is refused, and why.
    func resolve(in entry: UnsafeMutablePointer<json_t>) -> (field: String, reason: String)? {
        for (object, key, name) in [(entry, "avatar", "avatar"), (json_object_get(entry, "image"), "url", "image.url")] {
            guard let object, object.pointee.type == JSON_OBJECT, let value = json_object_get(object, key),
                  let text = UserFields.string(value), Self.isRelative(text) else { continue }
            switch url(for: text) {
            case .success(let served): json_object_set_new(object, key, json_string(served))
            case .failure(let refusal): return (name, refusal.reason(for: text))
            }
        }
        return nil
    }
}

import CJansson
import Foundation
import Synchronization

/// Pictures a data file names by a relative path (`"avatar": "ana.png"`), resolved against the
/// file's folder and served under `routePrefix` by a name of their own. Only files the data file
/// names are in the table, each checked to lie inside the folder once symlinks are followed, so no
/// request can reach anything else. Shared: entries `--watch` adds may name more pictures.
final class DataPictures: Sendable {
    static let routePrefix = "/media/data/"
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

        func reason(for relative: String) -> String {
            switch self {
            case .outside: "must be a picture inside the data file's folder, and \(relative) leads out of it"
            case .missing: "names \(relative), which is missing: there is no such file in the data file's folder"
            case .notAPicture: "must be a picture file (png, jpg, gif, webp, avif, svg), and \(relative) is not one"
            }
        }
    }

    private struct Table {
        /// Served name → the file's real path.
        var files: [String: String] = [:]
        var names: [String: String] = [:]
        /// Relative path as written → served URL: a file names the same few pictures over and
        /// over, and each is resolved (a realpath and a stat) once.
        var resolved: [String: String] = [:]
    }
    private let table = Mutex(Table())
    private let folder: String?

    /// Served name → the file's real path.
    var files: [String: String] { table.withLock { $0.files } }

    init(dataFile path: String) {
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
        if let known = table.withLock({ $0.resolved[relative] }) { return .success(known) }
        let served = resolve(relative)
        if case .success(let url) = served { table.withLock { $0.resolved[relative] = url } }
        return served
    }

    private func resolve(_ relative: String) -> Result<String, Refusal> {
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
        let base = (real as NSString).lastPathComponent.unicodeScalars
            .map { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "." || $0 == "-" ? String($0) : "_" }
            .joined()
        return .success(table.withLock { table in
            if let name = table.names[real] { return Self.routePrefix + name }
            let name = "\(table.files.count)-\(base)"
            table.files[name] = real
            table.names[real] = name
            return Self.routePrefix + name
        })
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

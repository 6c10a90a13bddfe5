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
    static let reason = "must be a picture file (png, jpg, gif, webp, avif, svg) inside the data file's folder"

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

    /// The served URL of the picture at `relative`, nil when it leaves the folder, is missing, or
    /// is not a picture.
    func url(for relative: String) -> String? {
        if let known = table.withLock({ $0.resolved[relative] }) { return known }
        guard let served = resolve(relative) else { return nil }
        table.withLock { $0.resolved[relative] = served }
        return served
    }

    private func resolve(_ relative: String) -> String? {
        guard let folder, !relative.contains("\0") else { return nil }
        guard let resolved = realpath(folder + "/" + relative, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        var status = stat()
        guard real.hasPrefix(folder + "/"), stat(real, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              Self.contentType(real) != nil else { return nil }
        let base = (real as NSString).lastPathComponent.unicodeScalars
            .map { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "." || $0 == "-" ? String($0) : "_" }
            .joined()
        return table.withLock { table in
            if let name = table.names[real] { return Self.routePrefix + name }
            let name = "\(table.files.count)-\(base)"
            table.files[name] = real
            table.names[real] = name
            return Self.routePrefix + name
        }
    }

    static func contentType(_ path: String) -> String? {
        contentTypes[(path as NSString).pathExtension.lowercased()]
    }

    /// Replaces a relative `avatar` and `image.url` of `entry` by their served URLs; returns the
    /// name of a field whose path is refused.
    func resolve(in entry: UnsafeMutablePointer<json_t>) -> String? {
        for (object, key, name) in [(entry, "avatar", "avatar"), (json_object_get(entry, "image"), "url", "image.url")] {
            guard let object, object.pointee.type == JSON_OBJECT, let value = json_object_get(object, key),
                  let text = UserFields.string(value), Self.isRelative(text) else { continue }
            guard let served = url(for: text) else { return name }
            json_object_set_new(object, key, json_string(served))
        }
        return nil
    }
}

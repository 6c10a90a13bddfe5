/// Content types by file extension, for the files the page is made of, and the API's JSON.
public enum MediaTypes {
    public static let json = "application/json"
    static let problemJSON = "application/problem+json"

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
        "json": json,
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "png": "image/png",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
    ]

    static func contentType(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether gzip is worth trying: text compresses well, PNG and fonts are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("image/svg") || contentType.contains("json")
    }
}

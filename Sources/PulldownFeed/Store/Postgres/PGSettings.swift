/// Where and how to reach PostgreSQL, parsed once from a `postgres://` URL.
struct PGSettings: Sendable {
    /// The URL as libpq gets it (without our own `pool_size` parameter).
    let url: String
    /// The URL with any password masked, for messages.
    let location: String
    /// Pooled connections for requests (the change listener has one more of its own).
    let poolSize: Int

    init(url given: String, defaultPoolSize: Int) throws(StoreError) {
        var poolSize = max(1, defaultPoolSize)
        var url = given
        if let mark = given.firstIndex(of: "?") {
            var kept: [Substring] = []
            for parameter in given[given.index(after: mark)...].split(separator: "&") {
                if parameter.hasPrefix("pool_size=") {
                    guard let size = Int(parameter.dropFirst("pool_size=".count)), (1...1000).contains(size) else {
                        throw .cannotOpen(location: Self.masked(given),
                                          reason: "pool_size must be a whole number from 1 to 1000")
                    }
                    poolSize = size
                } else {
                    kept.append(parameter)
                }
            }
            url = String(given[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        self.url = url
        self.location = Self.masked(url)
        self.poolSize = poolSize
    }

    /// `postgres://user:secret@host/db` -> `postgres://user:***@host/db`.
    static func masked(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return url }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}
